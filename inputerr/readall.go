package inputerr

import (
	"fmt"
	"io"
	"os"
)

// Size caps for the configuration files fairsim reads whole. The largest
// real ones are far below: a slurm.conf naming 10,000 nodes one per line
// is about 2 MB, a sacctmgr dump of a million associations about 200 MB.
// Without a cap, /dev/zero or a trace given where a configuration file
// was meant fills memory before any line is parsed.
const (
	MaxConfBytes  = 64 << 20  // slurm.conf (each Include), QOS file, scenario YAML
	MaxAssocBytes = 256 << 20 // sacctmgr dump or association listing
)

// ReadAll reads r to its end, refusing more than max bytes with an error
// naming file and what it was read as.
func ReadAll(r io.Reader, file, what string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &Error{File: file, Msg: fmt.Sprintf("more than %d MiB: too large for a %s", max>>20, what)}
	}
	return data, nil
}

// ReadFile is ReadAll of the file at path.
func ReadFile(path, what string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, what, max)
}

package workload

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fairsim/internal/shared"
)

// FuzzAccountCSV reads --accounts-map CSVs. The seeds are the test's
// mappings and two made from real sites' sacct dumps: user,account and
// group,account as those sites' jobs pair them (the mapping fairsim's
// users write from their own sacct).
func FuzzAccountCSV(f *testing.F) {
	for _, s := range []string{
		"# lab mapping\naccount, user\nPhysics,alice\nphysics,bob\n\n",
		"\"user\",\"account\"\n\"u1\",\"Physics\"\n",
		"group,account\nstaff,a1\nstaff,a2\n",
		"user,group,account\nu,g,a\n",
		"user,account\n\"u1,a\n",
	} {
		f.Add([]byte(s))
	}
	if d := shared.Dir(); d != "" {
		for _, name := range []string{"ubccr-sacct-simple.psv", "frontier-one-job.psv"} {
			for _, key := range []string{"User", "Group"} {
				if m := mappingFromSacct(filepath.Join(d, "real-sites", name), key); m != nil {
					f.Add(m)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadAccountCSV(bytes.NewReader(data), "map.csv")
		if err != nil {
			if !strings.Contains(err.Error(), "map.csv") {
				t.Fatalf("error names no file: %v", err)
			}
			return
		}
		if len(m.byUser) > 0 && len(m.byGroup) > 0 {
			t.Fatalf("mapping keyed by both user and group")
		}
		for _, byKey := range []map[string]string{m.byUser, m.byGroup} {
			for k, a := range byKey {
				if k == "" || a == "" || a != strings.ToLower(a) {
					t.Fatalf("entry %q -> %q: want a name and a lower-case account", k, a)
				}
			}
		}
		again, err := ReadAccountCSV(bytes.NewReader(data), "map.csv")
		if err != nil || !reflect.DeepEqual(m, again) {
			t.Fatalf("a second read differs: %v", err)
		}
	})
}

// mappingFromSacct is key,account (key User or Group) for each distinct
// pair of a sacct -P dump with a header, or nil without the file.
func mappingFromSacct(path, key string) []byte {
	fh, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	col := map[string]int{}
	var out bytes.Buffer
	out.WriteString(strings.ToLower(key) + ",account\n")
	seen := map[string]bool{}
	for sc.Scan() {
		f := strings.Split(sc.Text(), "|")
		if len(col) == 0 {
			for i, h := range f {
				col[h] = i
			}
			continue
		}
		k, a := col[key], col["Account"]
		if k >= len(f) || a >= len(f) || seen[f[k]] {
			continue
		}
		seen[f[k]] = true
		out.WriteString(f[k] + "," + f[a] + "\n")
	}
	return out.Bytes()
}

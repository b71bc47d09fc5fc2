package workflow

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// RunMarker is the file every run folder holds (the settings in force);
// a non-empty folder without it is not a fairsim run, and replacing it
// whole would destroy someone's files.
const RunMarker = "scenario.resolved.yaml"

// RunDir is a run folder being written: the outputs go into a hidden
// temporary folder beside the target, which replaces the target whole
// only once every file is written (Commit). A rerun therefore never
// leaves an earlier run's files behind, `fairsim report` never mixes two
// runs, and a failed or interrupted run leaves the previous folder as it
// was. A lock file beside the target keeps a second run out meanwhile.
type RunDir struct {
	// Final is the folder the run is for (--out).
	Final string
	// Tmp is the folder the outputs are written into until Commit.
	Tmp string

	lock      *os.File
	lockPath  string
	mu        sync.Mutex // Commit against an abort on a signal
	committed bool
	closed    bool
}

// OpenRunDir locks out, checks that a run may replace it (an empty or
// absent folder, or an earlier fairsim run; anything else only with
// force) and makes the temporary folder, so that an unwritable or
// foreign --out fails before the simulation rather than after it.
func OpenRunDir(out string, force bool) (*RunDir, error) {
	out = filepath.Clean(out)
	parent, base := filepath.Dir(out), filepath.Base(out)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return nil, fmt.Errorf("--out %s: name a folder of its own", out)
	}
	if st, err := os.Stat(out); err == nil {
		if !st.IsDir() {
			return nil, fmt.Errorf("--out %s: exists and is not a folder", out)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	d := &RunDir{Final: out, lockPath: filepath.Join(parent, "."+base+".lock")}
	if err := d.acquire(); err != nil {
		return nil, err
	}
	if err := d.mayReplace(force); err != nil {
		d.release()
		return nil, err
	}
	d.sweepTemps(parent, base)
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		d.release()
		return nil, fmt.Errorf("--out %s: cannot write beside it: %w", out, err)
	}
	d.Tmp = tmp
	return d, nil
}

// acquire takes an exclusive, non-blocking flock on the lock file. A
// lock file removed by the run that held it (release) may already be
// open here: the lock counts only if the path still names the file
// locked, else it is taken again on the new file.
func (d *RunDir) acquire() error {
	for range 10 {
		f, err := os.OpenFile(d.lockPath, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("--out %s: cannot make its lock: %w", d.Final, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return fmt.Errorf("--out %s: another fairsim run is writing there (lock %s held); wait for it or choose another --out", d.Final, d.lockPath)
			}
			return fmt.Errorf("--out %s: lock %s: %w", d.Final, d.lockPath, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(d.lockPath)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			d.lock = f
			return nil
		}
		f.Close()
	}
	return fmt.Errorf("--out %s: lock %s keeps changing", d.Final, d.lockPath)
}

// mayReplace refuses to replace a non-empty folder that holds no run.
func (d *RunDir) mayReplace(force bool) error {
	ents, err := os.ReadDir(d.Final)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(ents) == 0) || force {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", d.Final, err)
	}
	if _, err := os.Stat(filepath.Join(d.Final, RunMarker)); err == nil {
		return nil
	}
	return fmt.Errorf("--out %s: holds %d files but no %s, so it is not a fairsim run; a run replaces its folder whole: choose another --out, or give --force", d.Final, len(ents), RunMarker)
}

// sweepTemps removes the temporary folders of runs that were killed
// before they could clean up (SIGKILL, a crash): with the lock held,
// no live run owns them.
func (d *RunDir) sweepTemps(parent, base string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() && (strings.HasPrefix(n, "."+base+".tmp-") || strings.HasPrefix(n, "."+base+".old-")) {
			os.RemoveAll(filepath.Join(parent, n))
		}
	}
}

// Commit puts the written run in place of Final: the previous folder is
// moved aside, the new one renamed in, and the previous one removed, so
// that at every instant Final is either the whole previous run, absent,
// or the whole new run.
func (d *RunDir) Commit() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("--out %s: run folder already closed", d.Final)
	}
	if err := syncDir(d.Tmp); err != nil {
		return fmt.Errorf("--out %s: %w", d.Final, err)
	}
	old := ""
	if _, err := os.Lstat(d.Final); err == nil {
		old = filepath.Join(filepath.Dir(d.Final), "."+filepath.Base(d.Final)+".old-"+strconv.Itoa(os.Getpid()))
		if err := os.Rename(d.Final, old); err != nil {
			return fmt.Errorf("--out %s: moving the previous run aside: %w", d.Final, err)
		}
	}
	if err := os.Rename(d.Tmp, d.Final); err != nil {
		if old != "" {
			os.Rename(old, d.Final)
		}
		return fmt.Errorf("--out %s: %w", d.Final, err)
	}
	d.committed = true
	if old != "" {
		os.RemoveAll(old)
	}
	syncDir(filepath.Dir(d.Final))
	return nil
}

// syncDir flushes a folder's entries, so a rename after it does not
// publish names whose data a crash could still lose.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) { // file systems without directory sync
		return nil
	}
	return err
}

// Close removes the temporary folder unless the run was committed, and
// releases the lock; it is safe to call more than once.
func (d *RunDir) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closeLocked()
}

func (d *RunDir) closeLocked() {
	if d.closed {
		return
	}
	d.closed = true
	if !d.committed && d.Tmp != "" {
		// Writers may still be adding files: try again until the folder
		// is gone (RemoveAll fails on a folder filled meanwhile).
		for range 5 {
			if os.RemoveAll(d.Tmp) == nil {
				break
			}
		}
	}
	d.release()
}

// release removes and unlocks the lock file; removing it first means a
// waiting run that opened the old file sees the change (acquire).
func (d *RunDir) release() {
	if d.lock == nil {
		return
	}
	os.Remove(d.lockPath)
	d.lock.Close()
	d.lock = nil
}

// AbortOnSignal makes SIGINT and SIGTERM remove the temporary folder and
// exit with 128 + the signal's number (130, 143), as a shell reports a
// command a signal stopped; Final stays the previous run, or the new one
// if the signal came after Commit. The simulation has no points at which
// it could stop cleanly, so the process ends here; stop undoes the
// handler.
func (d *RunDir) AbortOnSignal(exit func(code int)) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			d.mu.Lock()
			d.closeLocked()
			code := 130
			if s == syscall.SIGTERM {
				code = 143
			}
			if d.committed {
				fmt.Fprintf(os.Stderr, "fairsim: %v: stopped after %s was written\n", s, d.Final)
			} else {
				fmt.Fprintf(os.Stderr, "fairsim: %v: stopped; %s left as it was\n", s, d.Final)
			}
			exit(code)
			d.mu.Unlock()
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}

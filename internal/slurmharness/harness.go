// Package slurmharness brings up scripts/slurm-harness, a real Slurm inside
// a private network namespace, for the tests built with the slurm tag
// (make test-slurm). Where the machine cannot run it, the test is skipped
// with a line saying why.
package slurmharness

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Harness is one running harness; Start stops it when the test ends.
type Harness struct {
	Script string // scripts/slurm-harness
	State  string // its state folder
	holder string // PID of the process holding the namespace
}

// Start brings a harness up with siteConf (partitions, priority; "" is the
// script's default) and registers its teardown.
func Start(t testing.TB, siteConf string) *Harness {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{Script: filepath.Join(root, "scripts", "slurm-harness")}
	if out, err := exec.Command(h.Script, "check").CombinedOutput(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			t.Skipf("SKIP: no real Slurm here: %s", strings.TrimSpace(string(out)))
		}
		t.Fatalf("slurm-harness check: %v: %s", err, out)
	}
	// A short path: the munge and MariaDB sockets live in it.
	h.State, err = os.MkdirTemp("", "fsh")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"up"}
	if siteConf != "" {
		args = append(args, siteConf)
	}
	t.Cleanup(func() {
		if out, err := h.script("down"); err != nil {
			t.Errorf("slurm-harness down: %v: %s", err, out)
		}
		os.RemoveAll(h.State)
	})
	if out, err := h.script(args...); err != nil {
		t.Fatalf("slurm-harness up: %v: %s", err, out)
	}
	pid, err := os.ReadFile(filepath.Join(h.State, "pids", "netns"))
	if err != nil {
		t.Fatal(err)
	}
	h.holder = strings.TrimSpace(string(pid))
	return h
}

func (h *Harness) script(args ...string) ([]byte, error) {
	cmd := exec.Command(h.Script, args...)
	cmd.Env = append(os.Environ(), "FAIRSIM_SLURM_STATE="+h.State)
	return cmd.CombinedOutput()
}

// Conf is the slurm.conf the harness's daemons read.
func (h *Harness) Conf() string { return filepath.Join(h.State, "etc", "slurm.conf") }

// Prefix runs a command inside the harness's namespace with its
// SLURM_CONF: nsenter into the holder's network namespace, then env.
func (h *Harness) Prefix() []string {
	return []string{"nsenter", "-t", h.holder, "-n", "env", "SLURM_CONF=" + h.Conf()}
}

// Run runs a client command in the namespace and returns its stdout.
func (h *Harness) Run(name string, args ...string) (string, error) {
	argv := append(append(h.Prefix(), name), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// MustRun is Run failing the test on an error.
func (h *Harness) MustRun(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := h.Run(name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Accounts makes local Unix users (when missing) and one account per
// user=account pair in sacctmgr.
func (h *Harness) Accounts(t testing.TB, userAccount map[string]string) {
	t.Helper()
	for u, a := range userAccount {
		if out, err := h.script("users", u); err != nil {
			t.Fatalf("slurm-harness users %s: %v: %s", u, err, out)
		}
		h.MustRun(t, "sacctmgr", "-i", "add", "account", a)
		h.MustRun(t, "sacctmgr", "-i", "add", "user", u, "account="+a)
	}
}

// WaitIdle waits until no job is queued or running and slurmdbd has
// recorded the end of n jobs, or fails the test after timeout.
func (h *Harness) WaitIdle(t testing.TB, n int, timeout time.Duration) {
	t.Helper()
	end := time.Now().Add(timeout)
	for time.Now().Before(end) {
		q, err := h.Run("squeue", "-h")
		if err == nil && strings.TrimSpace(q) == "" {
			s, err := h.Run("sacct", "-n", "-X", "-a", "-P", "-S", "now-1hour", "-o", "State")
			done := 0
			for _, st := range strings.Fields(s) {
				if st != "PENDING" && st != "RUNNING" {
					done++
				}
			}
			if err == nil && done >= n {
				return
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("jobs still queued after %v", timeout)
}

// repoRoot is the folder holding go.mod, from the test's working folder up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("slurmharness: no go.mod above the working folder")
		}
		dir = parent
	}
}

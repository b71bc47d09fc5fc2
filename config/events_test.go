package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fairsim/sim"
)

// TestSiteEvents: the events file of a scenario resolves against the
// cluster slurm.conf describes (testdata/fromslurm: old1-2, new1-2;
// partitions all, mid, big): hostlists to node indices, partition names
// to indices; Slurm times count from the first submission, dates from
// the trace epoch. Unknown names are errors at their line.
func TestSiteEvents(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "site.events")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	build := func(file string) (*Run, error) {
		sc, err := Load(filepath.Join("testdata", "fromslurm", "scenario.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		sc.Events = file
		if err := sc.Resolve(); err != nil {
			t.Fatal(err)
		}
		run, err := sc.Build()
		if run != nil {
			t.Cleanup(func() { run.Close() })
		}
		return run, err
	}
	run, err := build(write("1-0 NodeName=old[1-2],new2 State=DRAIN Reason=x\n2-0 PartitionName=big State=DOWN\n3-0 NodeName=new2 State=RESUME\n"))
	if err != nil {
		t.Fatal(err)
	}
	evs := run.Options.Events
	if len(evs) != 3 {
		t.Fatalf("got %d events: %+v", len(evs), evs)
	}
	c := run.Cluster
	var names []string
	for _, n := range evs[0].Nodes {
		names = append(names, c.Nodes[n].Name)
	}
	if got := strings.Join(names, ","); got != "old1,old2,new2" || evs[0].NodeState != sim.NodeDrain || !evs[0].FromFirst || evs[0].At != 86400 || evs[0].Line != 1 {
		t.Errorf("event 1: %+v (nodes %s)", evs[0], got)
	}
	if big, _ := c.Partition("big"); evs[1].Part != big || evs[1].PartState != sim.PartDown || len(evs[1].Nodes) != 0 {
		t.Errorf("event 2: %+v", evs[1])
	}
	if evs[2].NodeState != sim.NodeUp || evs[2].At != 3*86400 {
		t.Errorf("event 3: %+v", evs[2])
	}

	_, err = build(write("# bad names\n1-0 NodeName=old[1-3] State=DOWN Reason=x\n1-0 PartitionName=gpu State=UP\n"))
	if err == nil || !strings.Contains(err.Error(), "site.events:2: NodeName: node old3 is not in the cluster") ||
		!strings.Contains(err.Error(), "site.events:3: PartitionName: partition gpu is not in the cluster") {
		t.Errorf("got %v", err)
	}
}

// TestSiteEventsUserReservation: a reservation without MAINT resolves to a
// sim.Reservation with its lists split at commas; NodeCnt leaves Nodes
// empty (the simulator picks them at the line's time), Nodes= resolves.
func TestSiteEventsUserReservation(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "site.events")
	text := "0 ReservationName=chem StartTime=1-0 Duration=2:00:00 NodeCnt=2 Users=ann,bob Accounts=chem\n" +
		"0 ReservationName=bio StartTime=1-0 Duration=2:00:00 Nodes=new[1-2] Accounts=bio\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := Load(filepath.Join("testdata", "fromslurm", "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sc.Events = p
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	run, err := sc.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	evs := run.Options.Events
	if len(evs) != 2 {
		t.Fatalf("%d events", len(evs))
	}
	chem, bio := evs[0], evs[1]
	if r := chem.Resv; r == nil || r.Name != "chem" || r.NodeCnt != 2 || strings.Join(r.Users, "+") != "ann+bob" ||
		strings.Join(r.Accounts, "+") != "chem" || len(chem.Nodes) != 0 || chem.ResvStart != 86400 || chem.ResvEnd != 86400+7200 {
		t.Errorf("chem: %+v %+v", chem, chem.Resv)
	}
	if r := bio.Resv; r == nil || r.Users != nil || len(bio.Nodes) != 2 || run.Cluster.Nodes[bio.Nodes[0]].Name != "new1" {
		t.Errorf("bio: %+v %+v", bio, bio.Resv)
	}
}

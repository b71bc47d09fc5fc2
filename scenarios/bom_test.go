package scenarios

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestByteOrderMarkIgnored: every input file saved with a UTF-8
// byte-order mark (as Windows editors save them) gives the same run as
// without: slurm.conf, QOS file, sacctmgr dump, events file, scenario,
// accounts map, and SWF and sacct traces; and the same sshare from a
// usage CSV (CSVs saved by a spreadsheet begin with one).
func TestByteOrderMarkIgnored(t *testing.T) {
	files := map[string]string{
		"slurm.conf": "ClusterName=alpha\nAccountingStorageEnforce=limits\nPriorityType=priority/multifactor\nPriorityWeightFairshare=1000\n" +
			"NodeName=n[1-2] CPUs=4 RealMemory=4000\nPartitionName=batch Nodes=n[1-2] Default=YES MaxTime=2:00:00\n",
		"qos.txt": "Name|Priority|MaxJobsPU\nnormal|10|2\n",
		"assoc.cfg": "Cluster - 'alpha':Fairshare=1:QOS='normal'\nParent - 'root'\nAccount - 'physics':Fairshare=100:QOS='normal'\n" +
			"Parent - 'physics'\nUser - 'jane':DefaultAccount='physics':Fairshare=1\nUser - 'u1':DefaultAccount='physics':Fairshare=1\n",
		"events":    "00:10:00 NodeName=n2 State=DRAIN Reason=\"fan\"\n00:20:00 NodeName=n2 State=RESUME\n",
		"trace.swf": "; MaxNodes: 2\n; MaxProcs: 8\n1 0 -1 600 4 -1 -1 4 1200 -1 1 1 1 -1 1 -1 -1 -1\n2 60 -1 600 4 -1 -1 4 1200 -1 1 1 1 -1 1 -1 -1 -1\n3 120 -1 600 8 -1 -1 8 1200 -1 1 1 1 -1 1 -1 -1 -1\n",
		"trace.psv": "JobID|JobIDRaw|User|Account|Submit|Start|End|Elapsed|Timelimit|NCPUS|State\n" +
			"1|1|jane|physics|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:10:00|00:10:00|00:20:00|4|COMPLETED\n" +
			"2|2|jane|physics|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:11:00|00:10:00|00:20:00|8|COMPLETED\n",
		"s.yaml":    "name: bom\nscheduler: slurm\nslurm_conf: slurm.conf\nqos: qos.txt\nassoc: assoc.cfg\nevents: events\naccounts:\n  map: map.csv\n",
		"map.csv":   "user,account\nu1,physics\n",
		"usage.csv": "account,user,rawusage\nphysics,jane,3600\n",
	}
	write := func(dir string, bom bool) {
		for name, body := range files {
			b := []byte(body)
			if bom {
				b = append([]byte{0xEF, 0xBB, 0xBF}, b...)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	plain, marked := t.TempDir(), t.TempDir()
	write(plain, false)
	write(marked, true)
	for _, trace := range []string{"trace.swf", "trace.psv"} {
		var jobs [2][]byte
		for i, dir := range []string{plain, marked} {
			out := filepath.Join(dir, "out-"+trace)
			cli(t, "run", "--scenario", filepath.Join(dir, "s.yaml"), "--trace", filepath.Join(dir, trace), "--tz", "UTC", "--out", out, "--quiet")
			b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
			if err != nil {
				t.Fatal(err)
			}
			jobs[i] = b
		}
		if !bytes.Equal(jobs[0], jobs[1]) || bytes.Count(jobs[0], []byte("\n")) < 3 {
			t.Errorf("%s: jobs.csv differs with byte-order marks:\n%s\nwithout:\n%s", trace, jobs[1], jobs[0])
		}
		if bytes.Contains(jobs[0], []byte("REJECTED")) || !bytes.Contains(jobs[0], []byte(",physics,")) {
			t.Errorf("%s: want every job run in account physics (the SWF's from map.csv):\n%s", trace, jobs[0])
		}
	}
	var sshare [2]string
	for i, dir := range []string{plain, marked} {
		sshare[i] = cli(t, "sshare", "--assoc", filepath.Join(dir, "assoc.cfg"), "--usage", filepath.Join(dir, "usage.csv"), "-a", "-l", "-P")
	}
	if sshare[0] != sshare[1] || !strings.Contains(sshare[0], "|3600|") {
		t.Errorf("sshare from usage.csv differs with a byte-order mark:\n%s\nwithout:\n%s", sshare[1], sshare[0])
	}
}

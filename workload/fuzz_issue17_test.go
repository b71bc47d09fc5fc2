package workload

import (
	"fairsim/internal/shared"
	"strings"
	"testing"
)

// realSiteSacct are the sacct logs of shared/real-sites, read by path
// (never copied into the repository) as fuzz seeds when present.
var realSiteSacct = []string{"ubccr-sacct-simple.psv", "frontier-one-job.psv", "xdmod-noheader.psv"}

func readRealSite(name string) []byte {
	return shared.RealSite(name)
}

func addRealSiteSeeds(f *testing.F, extra ...any) {
	for _, name := range realSiteSacct {
		if b := readRealSite(name); b != nil {
			f.Add(append([]any{b}, extra...)...)
		}
	}
}

func FuzzSubmitLine(f *testing.F) {
	for _, s := range []string{"sbatch job.sh", "sbatch --wrap=env | grep SLURM", "sbatch -N2-4 --exclusive -d afterok:1:2 x",
		"salloc -HN1 -w 'cn[1-4]' --begin=now+1hour", "srun -W 30 -N 1-2 hostname", "sbatch --nodes=1,2,4:2 --res=x",
		`sbatch --wrap="echo \"hi\"" -x cn5`, "sbatch --gres=gpu:a100:2,shard:1 -N 2 x", "sbatch -G a100:2,v100:1 -n 4 x",
		"sbatch --gpus-per-node=4 --gpus-per-task=1 --ntasks-per-node=4 x", "srun --gpus-per-socket=2 -c 8 x",
		"sbatch --tres-per-task=cpu=2,gres/gpu:1 x", "sbatch --gres=none --gres=gpu:1k x",
		// a throttled array, as the 22.05 harness recorded it (slurm-diff/array-throttle)
		"sbatch --uid=fsu4 --gid=users --account=a2 --partition=batch --qos=normal -n 3 -t 5 --array=0-7%2 --mem=3000 --chdir=/tmp -o /dev/null -J ref1 --wrap sleep 37"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		req, err := ParseSubmitLine(line)
		if err != nil {
			return
		}
		if (req.MinNodes == Unset) != (req.MaxNodes == Unset) || req.MaxNodes < req.MinNodes {
			t.Fatalf("%q: nodes %d-%d", line, req.MinNodes, req.MaxNodes)
		}
		if req.ArrayThrottle < 0 || req.ArrayThrottle > 1<<31-1 {
			t.Fatalf("%q: array throttle %d", line, req.ArrayThrottle)
		}
		for _, g := range append(append([]GresReq(nil), req.Gres...), req.GresPerTask...) {
			if g.Count < 1 || g.Count > MaxGresCount {
				t.Fatalf("%q: GRES %+v", line, g)
			}
		}
		if reqs, err := req.GresFor(3); err == nil {
			back, err := ParseGres(FormatGres(reqs))
			if err != nil || FormatGres(back) != FormatGres(reqs) {
				t.Fatalf("%q: GRES %q reads back as %q, %v", line, FormatGres(reqs), FormatGres(back), err)
			}
		}
		if req.Dependency != "" {
			if deps, _, err := ParseDependency(req.Dependency); err == nil {
				SinglePreceding(deps)
			}
		}
	})
}

func FuzzDetectFormat(f *testing.F) {
	for _, name := range realSiteSacct {
		if b := readRealSite(name); b != nil {
			f.Add(b)
		}
	}
	f.Add([]byte("; Version: 2.2\n1 0 0 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	f.Add([]byte("#fairsim epoch=0\nJobID|Submit\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DetectFormatBytes("f", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if got != FormatSacct && got != FormatSWF {
			t.Fatalf("format %q", got)
		}
	})
}

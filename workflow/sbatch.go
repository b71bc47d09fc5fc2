package workflow

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"fairsim/slurmtime"
)

// SbatchOptions shape the job-array script EmitSbatch writes.
type SbatchOptions struct {
	// Fairsim is the fairsim binary the tasks run (an absolute path);
	// the script lets $FAIRSIM override it.
	Fairsim string
	// Out is the sweep directory (absolute): shards go to Out/shards/I,
	// the merged sweep.csv to Out, logs to Out/logs.
	Out string
	// Shards is the number of array tasks; 0 means one per point, at most
	// 1000 (Slurm's default MaxArraySize is 1001).
	Shards int
	// CPUsPerTask is each task's --cpus-per-task; the task runs that many
	// points at once.
	CPUsPerTask int
	// Time is each task's --time limit (a Slurm time string); "" for the
	// partition's default.
	Time string
	// Script is the script's own file name, for its usage comment.
	Script string
	// Extra are more #SBATCH options for the array tasks, e.g.
	// "--partition=serial".
	Extra []string
}

// shellQuote quotes s for bash so it reaches the program as one argument.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// EmitSbatch writes a bash script that runs the sweep on a Slurm cluster:
// a job array with one shard per task (#SBATCH --array=0-(N-1), the task
// running --shard $SLURM_ARRAY_TASK_ID/N), and a merge job submitted with
// --dependency=afterok on the array, so it runs once every task succeeded.
//
// Run the script itself (bash sweep.sbatch) on a login node: outside an
// array task it submits itself as the array, then the merge job. Inside an
// array task it runs that task's shard.
func (s *Sweep) EmitSbatch(w io.Writer, o SbatchOptions) error {
	points, _, err := s.Plan()
	if err != nil {
		return err
	}
	n := o.Shards
	if n <= 0 {
		n = min(len(points), 1000)
	}
	if n > len(points) {
		n = len(points)
	}
	if o.CPUsPerTask < 1 {
		o.CPUsPerTask = 1
	}
	if o.Time != "" {
		if _, err := slurmtime.ParseSeconds(o.Time); err != nil {
			return fmt.Errorf("--time %q: %w", o.Time, err)
		}
	}
	args := []string{"sweep"}
	if s.Scenario != "" {
		args = append(args, "--scenario", s.Scenario)
	}
	if st := s.Site; st != nil {
		for _, kv := range [][2]string{{"--slurm-conf", st.SlurmConf}, {"--assoc", st.Assoc}, {"--qos", st.QOS}, {"--trace", st.Trace}, {"--tz", st.TimeZone}} {
			if kv[1] != "" {
				v := kv[1]
				if abs, err := filepath.Abs(v); err == nil && kv[0] != "--tz" {
					v = abs
				}
				args = append(args, kv[0], v)
			}
		}
		for _, ct := range st.CPUTypes {
			args = append(args, "--cpu-type", ct)
		}
	}
	for _, p := range s.Params {
		args = append(args, "--set", FormatSet(p))
	}
	if s.Seeds > 1 {
		args = append(args, "--seeds", fmt.Sprint(s.Seeds))
	}
	args = append(args, "--starved-after", slurmtime.Format(s.StarvedAfter))
	var q []string
	for _, a := range args {
		q = append(q, shellQuote(a))
	}
	sweepArgs := strings.Join(q, " ")

	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	p("#!/bin/bash")
	p("# fairsim sweep of %d points as a Slurm job array of %d tasks (one shard each),", len(points), n)
	p("# then a merge job that writes %s/sweep.csv once every task succeeded.", o.Out)
	p("#")
	p("# Submit from a login node with:   bash %s", shellQuote(o.Script))
	p("# (outside an array task the script submits itself with sbatch, then the merge job")
	p("# with --dependency=afterok:<array job id>). Set FAIRSIM to use another fairsim binary.")
	p("#SBATCH --job-name=fairsim-sweep")
	p("#SBATCH --array=0-%d", n-1)
	p("#SBATCH --cpus-per-task=%d", o.CPUsPerTask)
	if o.Time != "" {
		p("#SBATCH --time=%s", o.Time)
	}
	p("#SBATCH --output=%s/logs/shard-%%a.out", o.Out)
	for _, e := range o.Extra {
		p("#SBATCH %s", e)
	}
	p("set -euo pipefail")
	p("")
	p("FAIRSIM=${FAIRSIM:-%s}", shellQuote(o.Fairsim))
	p("OUT=%s", shellQuote(o.Out))
	p("SHARDS=%d", n)
	p("")
	p(`if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then`)
	p(`  mkdir -p "$OUT/logs"`)
	p(`  jobid=$(sbatch --parsable "$0")`)
	p(`  jobid=${jobid%%%%;*}`)
	p(`  shard_dirs=""`)
	p(`  for ((i = 0; i < SHARDS; i++)); do shard_dirs="$shard_dirs $OUT/shards/$i"; done`)
	p(`  merge=$(sbatch --parsable --dependency=afterok:$jobid --job-name=fairsim-sweep-merge \`)
	p(`    --output="$OUT/logs/merge.out" --wrap "$FAIRSIM sweep merge --out $OUT$shard_dirs")`)
	p(`  echo "submitted array job $jobid ($SHARDS tasks) and merge job ${merge%%%%;*}; results in $OUT/sweep.csv"`)
	p(`  exit 0`)
	p(`fi`)
	p("")
	p(`"$FAIRSIM" %s \`, sweepArgs)
	p(`  --shard "$SLURM_ARRAY_TASK_ID/$SHARDS" --jobs "${SLURM_CPUS_PER_TASK:-1}" \`)
	p(`  --out "$OUT/shards/$SLURM_ARRAY_TASK_ID"`)
	for _, v := range []string{o.Out, o.Fairsim} {
		if strings.ContainsAny(v, " \t'\"$`\\") {
			return fmt.Errorf("%q: the merge job's command line needs paths without spaces or quotes", v)
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// WriteSbatch writes the sweep's job-array script to file, executable,
// with the sweep directory and scenario made absolute so the tasks find
// them from wherever Slurm starts them. A failed write leaves no file.
func (s *Sweep) WriteSbatch(file string, o SbatchOptions) error {
	var err error
	if o.Out, err = filepath.Abs(o.Out); err != nil {
		return err
	}
	sw := *s
	if sw.Scenario != "" {
		if sw.Scenario, err = filepath.Abs(sw.Scenario); err != nil {
			return err
		}
	}
	o.Script = file
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	err = sw.EmitSbatch(f, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(file)
		return err
	}
	return os.Chmod(file, 0o755)
}

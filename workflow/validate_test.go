package workflow

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fairsim/config"
)

// bruteTau is tau-b by its definition, over every pair.
func bruteTau(x, y []float64) float64 {
	var c, d, tx, ty, n float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			n++
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
				tx++
				ty++
			case dx == 0:
				tx++
			case dy == 0:
				ty++
			case dx*dy > 0:
				c++
			default:
				d++
			}
		}
	}
	return (c - d) / math.Sqrt((n-tx)*(n-ty))
}

func TestKendallTau(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
	}{
		{"same order", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		// One swapped neighbour pair of 4: 6 pairs, 5 concordant, 1
		// discordant: (5-1)/6.
		{"one swap", []float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}, 4.0 / 6},
		// Ties: x has the pair (1,2) tied, y none. Pairs 6, tied in x 1;
		// concordant 5 (every pair but the tied one); tau-b = 5/sqrt(5*6).
		{"tie in x", []float64{1, 1, 2, 3}, []float64{1, 2, 3, 4}, 5 / math.Sqrt(30)},
		{"all tied", []float64{1, 1, 1}, []float64{1, 2, 3}, math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := KendallTau(tc.x, tc.y)
			if math.IsNaN(tc.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-tc.want) > 1e-12) {
				t.Fatalf("KendallTau = %v, want %v", got, tc.want)
			}
		})
	}
	// The merge-sort count agrees with the pair-by-pair definition on
	// samples with many ties.
	x, y := make([]float64, 200), make([]float64, 200)
	for i := range x {
		x[i], y[i] = float64((i*37)%23), float64((i*11)%17)
	}
	if got, want := KendallTau(x, y), bruteTau(x, y); math.Abs(got-want) > 1e-12 {
		t.Fatalf("KendallTau = %v, brute force %v", got, want)
	}
}

// TestKendallDiscordant: the pairs in the opposite order and the pairs tied
// in one sample only, which tau-b counts neither way.
func TestKendallDiscordant(t *testing.T) {
	for _, tc := range []struct {
		name          string
		x, y          []float64
		disc, tiedOne int64
	}{
		{"same order", []float64{1, 2, 3}, []float64{5, 6, 7}, 0, 0},
		// Reversed: all 3 pairs discordant.
		{"reversed", []float64{1, 2, 3}, []float64{3, 2, 1}, 3, 0},
		// A controller starts jobs 1 and 2 in the same second, the
		// simulation a second apart; job 3 later in both: no pair in
		// the opposite order, one pair tied in x only.
		{"same second in one record", []float64{10, 10, 20}, []float64{10, 11, 20}, 0, 1},
		// Tied in both: no pair counted either way.
		{"tied in both", []float64{10, 10, 20}, []float64{11, 11, 20}, 0, 0},
		// Jobs a, b, c: a-b tied in x only (y 2 > 1), a-c discordant
		// (x 0 < 1, y 2 > 1), b-c tied in y only. Discordant 1, tied in
		// one sample only 2.
		{"mixed", []float64{0, 0, 1}, []float64{2, 1, 1}, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := kendall(tc.x, tc.y)
			if o.discordant != tc.disc || o.tiedOne != tc.tiedOne {
				t.Fatalf("discordant %d, tied in one %d; want %d, %d", o.discordant, o.tiedOne, tc.disc, tc.tiedOne)
			}
		})
	}
}

// TestValidateWindows scores hand-made jobs: windows of 6 s stepping 3 s
// over submits 0, 10, 20, 30 s.
func TestValidateWindows(t *testing.T) {
	mk := func(id, sub, real, sim int64, part string) *JobDiff {
		return &JobDiff{ID: id, Partition: part, QOS: "normal", Submit: sub, RealWait: real, SimWait: sim}
	}
	v := &Validation{Jobs: []*JobDiff{mk(1, 0, 0, 3, "a"), mk(2, 10, 90, 93, "a"), mk(3, 20, 180, 183, "b"), mk(4, 30, 300, 273, "b")}}
	v.windows(0)
	if v.Window != 6 { // span 30 s / 5
		t.Fatalf("window %d, want 6", v.Window)
	}
	// Window k covers [3k, 3k+6): job 1 in k=0 (recorded mean 0: left
	// out), job 2 in k=2,3, job 3 in k=5,6, job 4 in k=9,10.
	// Partition a: 2 windows of |93-90|/90 -> 3.333%.
	// Partition b: 2 of 3/180 and 2 of 27/300 -> (1.667+1.667+9+9)/4 = 5.333%.
	// QOS normal: all six -> (3.333*2 + 1.667*2 + 9*2)/6 = 4.667%.
	want := map[string]float64{"partition a": 100 * 3.0 / 90, "partition b": 100 * (2*3.0/180 + 2*27.0/300) / 4,
		"qos normal": 100 * (2*3.0/90 + 2*3.0/180 + 2*27.0/300) / 6}
	for _, g := range v.Groups {
		w, ok := want[g.Kind+" "+g.Name]
		if !ok || math.Abs(g.MAPE-w) > 1e-9 {
			t.Errorf("%s %s: MAPE %v, want %v", g.Kind, g.Name, g.MAPE, w)
		}
	}
	if g := v.Groups[0]; g.Name != "a" || g.ZeroWins != 1 || g.Windows != 2 {
		t.Errorf("partition a: %d windows, %d zero, want 2 and 1", g.Windows, g.ZeroWins)
	}
	if w := (want["partition a"] + want["partition b"]) / 2; math.Abs(v.PartitionMAPE-w) > 1e-9 {
		t.Errorf("partition MAPE %v, want %v", v.PartitionMAPE, w)
	}
}

// TestValidateFixture replays testdata/validate: four whole-node jobs in
// FIFO order, the last recorded 30 s later than FIFO would start it.
func TestValidateFixture(t *testing.T) {
	sc, err := config.Load(ScenarioFile("testdata/validate"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Resolve(); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	v, err := Validate(sc, ValidateOptions{Top: 1, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Jobs) != 4 || v.NotStarted != 0 {
		t.Fatalf("%d jobs compared, %d not started; want 4, 0", len(v.Jobs), v.NotStarted)
	}
	if v.Tau != 1 {
		t.Errorf("tau %v, want 1: the replay keeps FIFO order", v.Tau)
	}
	// Recorded waits 0, 90, 180, 300 s.
	for i, w := range []int64{0, 90, 180, 300} {
		if v.Jobs[i].RealWait != w {
			t.Errorf("job %d recorded wait %d, want %d", v.Jobs[i].ID, v.Jobs[i].RealWait, w)
		}
	}
	// Whatever start delay the scheduler models, FIFO starts job 4 when
	// job 3 ends: its simulated wait is below the recorded one.
	if len(v.Worst) != 1 || v.Worst[0].ID != 4 || v.Worst[0].Err() >= 0 || len(v.Worst[0].Reasons) == 0 {
		t.Errorf("worst %+v, want job 4 waiting less than recorded, with reasons", v.Worst)
	}
	csv, err := os.ReadFile(filepath.Join(out, "validate.csv"))
	if err != nil || !strings.HasPrefix(string(csv), "JobID,Partition,QOS,Submit,RealStart,SimStart,RealWait,SimWait,WaitError\n1,batch,normal,0,0,") {
		t.Errorf("validate.csv: %v\n%s", err, csv)
	}
	if fi, err := os.Stat(filepath.Join(out, "waits.png")); err != nil || fi.Size() == 0 {
		t.Errorf("waits.png: %v", err)
	}
	var b strings.Builder
	v.Write(&b)
	if !strings.Contains(b.String(), "Kendall's tau-b 1.0000") {
		t.Errorf("report lacks tau:\n%s", b.String())
	}
}

func TestCellDiff(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"", "", 0}, {"inf", "inf", 0}, {"0.250000", "0.250000", 0},
		{"797", "666", 131}, {"0.491633", "0.487916", 0.003717},
		{"", "0.000000", math.NaN()}, {"inf", "1.000000", math.NaN()},
	} {
		got := cellDiff(tc.a, tc.b)
		if math.IsNaN(tc.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-tc.want) > 1e-12) {
			t.Errorf("cellDiff(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

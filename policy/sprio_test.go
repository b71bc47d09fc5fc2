package policy

import (
	"strings"
	"testing"
)

func TestSprioCell(t *testing.T) {
	tests := []struct {
		s     string
		width int
		right bool
		want  string
	}{
		{"JOBID", 15, true, "          JOBID"},
		{"short", 9, false, "short    "},
		{"sandybridge", 9, false, "sandybrid"}, // cut, as sprio cuts
		{"averylongname", 8, true, "averylon"},
		{"x", 0, true, "x"},
	}
	for _, tt := range tests {
		if got := sprioCell(tt.s, tt.width, tt.right); got != tt.want {
			t.Errorf("sprioCell(%q, %d, %v) = %q, want %q", tt.s, tt.width, tt.right, got, tt.want)
		}
	}
	// C's %.0f rounds half to even.
	for in, want := range map[float64]string{0.5: "0", 1.5: "2", 2.5: "2", 99.49: "99", -0.4: "-0"} {
		if got := fmtInt(in); got != want {
			t.Errorf("fmtInt(%v) = %q, want %q", in, got, want)
		}
	}
}

// The short format keeps only the factors with a weight; -n divides each
// term by its weight and PRIORITY (the sum 1400.5, cut to 10 characters)
// by 2^32-1; TRES lists the non-zero terms.
func TestWriteSprioRows(t *testing.T) {
	sw := SprioWeights{W: Weights{Age: 1000, QOS: 2000},
		TRES: TRESWeights{{Name: "cpu", Weight: 300}, {Name: "mem", Weight: 50}}, Raw: "CPU=300,Mem=50"}
	f := Factors{Age: 250.5, QOS: 1000, NTRES: 2}
	f.TRES[0] = 150
	rows := []SprioRow{{ID: 42, Part: "batch", User: "alice", F: f, Priority: 1400}}
	var b strings.Builder
	if err := WriteSprio(&b, rows, sw, SprioOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "          JOBID PARTITION   PRIORITY       SITE        AGE        QOS                 TRES\n" +
		"             42 batch           1400          0        250       1000              cpu=150\n"
	if b.String() != want {
		t.Errorf("short format:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := WriteSprio(&b, rows, sw, SprioOptions{Norm: true, NoHeader: true}); err != nil {
		t.Fatal(err)
	}
	want = "             42 batch     0.00000032 0.2505000  0.5000000  cpu=0.50            \n"
	if b.String() != want {
		t.Errorf("-n:\n%q\nwant\n%q", b.String(), want)
	}
}

package workload

import (
	"bytes"
	"testing"
)

func TestGenQOSMix(t *testing.T) {
	c := DefaultGenConfig()
	c.Jobs, c.Seed = 20000, 3
	plain, err := GenerateSWF(c)
	if err != nil {
		t.Fatal(err)
	}
	c.QOS = QOSMix{{"normal", 0.8}, {"high", 0.15}, {"standby", 0.05}}
	g, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for i := range g.Jobs {
		n[g.Names.QOS.Name(g.Jobs[i].QOS)]++
	}
	// 20,000 draws: each share within 1.5 points of its weight.
	for name, want := range map[string]float64{"normal": 0.8, "high": 0.15, "standby": 0.05} {
		within(t, name, float64(n[name])/float64(c.Jobs), want, 0.015)
	}
	// The QOS stream is its own: every other field is as without it.
	c.QOS = nil
	base, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Jobs {
		j := g.Jobs[i]
		j.QOS = base.Jobs[i].QOS
		if j != base.Jobs[i] {
			t.Fatalf("job %d: a QOS mix changed other draws: %+v, was %+v", i, g.Jobs[i], base.Jobs[i])
		}
	}
	if again, _ := GenerateSWF(c); !bytes.Equal(plain, again) {
		t.Fatal("generator not deterministic")
	}
	for _, bad := range []string{"normal", "normal:0", "normal:1,NORMAL:2", ":1", "a b:1"} {
		if _, err := ParseQOSMix(bad); err == nil {
			t.Errorf("ParseQOSMix(%q) accepted", bad)
		}
	}
	if m, err := ParseQOSMix("normal:0.85, high:0.1"); err != nil || m.String() != "normal:0.85,high:0.1" {
		t.Errorf("ParseQOSMix: %v %v", m, err)
	}
}

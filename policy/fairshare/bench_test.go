package fairshare

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// bigTree builds 1,000 accounts (20 departments of 49 groups each) and
// 10,000 user associations spread over the groups, with varied shares.
func bigTree(tb testing.TB) *Tree {
	tb.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	tr := NewTree()
	var groups []string
	for d := range 20 {
		dept := fmt.Sprintf("dept%02d", d)
		if err := tr.AddAccount(dept, "root", Shares{Raw: uint32(10 + r.IntN(90))}, nil); err != nil {
			tb.Fatal(err)
		}
		for g := range 49 {
			grp := fmt.Sprintf("%s_g%02d", dept, g)
			if err := tr.AddAccount(grp, dept, Shares{Raw: uint32(1 + r.IntN(20))}, nil); err != nil {
				tb.Fatal(err)
			}
			groups = append(groups, grp)
		}
	}
	for u := range 10000 {
		s := Shares{Raw: uint32(1 + r.IntN(5))}
		if u%17 == 0 {
			s = Shares{Parent: true}
		}
		if err := tr.AddUser(fmt.Sprintf("user%05d", u), groups[r.IntN(len(groups))], s, nil); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tr.Finalize(); err != nil {
		tb.Fatal(err)
	}
	return tr
}

// benchTicks measures one calc tick: BeginTick's decay, charging ~2,000
// running jobs, and EndTick's fair-share computation.
func benchTicks(b *testing.B, alg Algorithm) {
	tr := bigTree(b)
	if tr.Len() != 11001 {
		b.Fatalf("tree has %d associations", tr.Len())
	}
	e, err := NewEngine(tr, Config{Algorithm: alg, HalfLife: 7 * 24 * 3600, TrackTRES: true})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	type job struct {
		assoc   int
		start   int64
		billing float64
		tres    TRES
	}
	var users []int
	for i := range tr.Len() {
		if tr.IsUser(i) {
			users = append(users, i)
		}
	}
	jobs := make([]job, 2000)
	for k := range jobs {
		c := float64(1 + r.IntN(64))
		jobs[k] = job{users[r.IntN(len(users))], -int64(r.IntN(86400)), c, TRES{c, c * 4000, 1, c}}
	}
	T := int64(0)
	e.BeginTick(T)
	e.EndTick(T)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		T += 300
		e.BeginTick(T)
		for _, j := range jobs {
			e.Charge(j.assoc, j.start, T, j.billing, 1, j.tres)
		}
		e.EndTick(T)
	}
}

func BenchmarkTick1000x10000(b *testing.B)        { benchTicks(b, FairTree) }
func BenchmarkTick1000x10000Classic(b *testing.B) { benchTicks(b, Classic) }

package workload

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// assocSource: alice and bob in group phys, carol in chem, dave in none.
// Core seconds: alice 4x100 = 400, bob 2x300 = 600, carol 1x1000 = 1000,
// dave 10 allocated x 200 = 2000, and a job that never ran.
func assocSource(extra ...Job) *SliceSource {
	n := &Names{}
	phys, chem := n.Groups.ID("phys"), n.Groups.ID("chem")
	alice, bob, carol, dave := n.Users.ID("alice"), n.Users.ID("bob"), n.Users.ID("carol"), n.Users.ID("dave")
	mk := func(id int64, u, g int32, cpus, alloc int, rt int64) Job {
		return Job{ID: id, User: u, Group: g, Account: Unset, CPUs: cpus, AllocCPUs: alloc, Runtime: rt}
	}
	jobs := []Job{
		mk(1, alice, phys, 4, 4, 100),
		mk(2, bob, phys, 2, Unset, 300),
		mk(3, carol, chem, 1, 1, 1000),
		mk(4, dave, Unset, 8, 10, 200),
		{ID: 5, User: bob, Group: phys, Account: Unset, CPUs: 64, AllocCPUs: 64, Runtime: 0, CancelledPending: true},
	}
	for _, j := range extra {
		j.Account = Unset
		jobs = append(jobs, j)
	}
	return NewSliceSource(jobs, n, Header{})
}

func dumpText(t *testing.T, d *AssocDump) string {
	t.Helper()
	var b strings.Builder
	if _, err := d.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestAssocByGroupUsage(t *testing.T) {
	src := assocSource()
	tally := TallyAssoc(MapAccounts(src, &AccountMap{By: "group"}))
	jobs := drain(tally)
	accts := []string{}
	for _, j := range jobs {
		accts = append(accts, src.Names().Accounts.Name(j.Account))
	}
	if strings.Join(accts, ",") != "phys,phys,chem,nogroup,phys" {
		t.Errorf("accounts %v", accts)
	}
	if d := src.Stats().Defaulted; d["account: from group"] != 4 || d["account: no group: nogroup"] != 1 {
		t.Errorf("defaulted %v", d)
	}
	// Total 4000 core seconds: phys 1000 -> 250, chem 1000 -> 250, nogroup 2000 -> 500 thousandths.
	want := `# fairsim association dump: 3 accounts, shares usage
Cluster - 'test':Fairshare=1
Parent - 'root'
Account - 'chem':Description='chem':Organization='chem':Fairshare=250
Account - 'nogroup':Description='nogroup':Organization='nogroup':Fairshare=500
Account - 'phys':Description='phys':Organization='phys':Fairshare=250
Parent - 'chem'
User - 'carol':DefaultAccount='chem':Fairshare=1
Parent - 'nogroup'
User - 'dave':DefaultAccount='nogroup':Fairshare=1
Parent - 'phys'
User - 'alice':DefaultAccount='phys':Fairshare=1
User - 'bob':DefaultAccount='phys':Fairshare=1
`
	if got := dumpText(t, tally.Dump("test", SharesUsage)); got != want {
		t.Errorf("dump\n got:\n%s\nwant:\n%s", got, want)
	}
	if got := dumpText(t, tally.Dump("test", SharesEqual)); !strings.Contains(got, "Account - 'nogroup':Description='nogroup':Organization='nogroup':Fairshare=1\n") {
		t.Errorf("equal shares:\n%s", got)
	}
}

func TestAssocByUserAndDefaultAccount(t *testing.T) {
	// alice also runs 5000 core seconds in chem: that becomes her default.
	src := assocSource(Job{ID: 6, User: 0, Group: 1, CPUs: 50, AllocCPUs: 50, Runtime: 100})
	tally := TallyAssoc(MapAccounts(src, &AccountMap{By: "group"}))
	drain(tally)
	got := dumpText(t, tally.Dump("c", SharesEqual))
	if !strings.Contains(got, "Parent - 'chem'\nUser - 'alice':DefaultAccount='chem':Fairshare=1\n") ||
		!strings.Contains(got, "Parent - 'phys'\nUser - 'alice':DefaultAccount='chem':Fairshare=1\n") {
		t.Errorf("alice should be in chem and phys with chem as default:\n%s", got)
	}
	src = assocSource()
	tally = TallyAssoc(MapAccounts(src, &AccountMap{By: "user"}))
	drain(tally)
	d := tally.Dump("c", SharesEqual)
	var names []string
	for _, a := range d.Accounts {
		names = append(names, a.Name+":"+strings.Join(a.Users, "+"))
	}
	if strings.Join(names, " ") != "alice:alice bob:bob carol:carol dave:dave" {
		t.Errorf("by user: %v", names)
	}
}

func TestAssocCSV(t *testing.T) {
	m, err := ReadAccountCSV(strings.NewReader("# lab mapping\naccount, user\nPhysics,alice\nphysics,bob\n\n"), "map.csv")
	if err != nil {
		t.Fatal(err)
	}
	src := assocSource()
	as := MapAccounts(src, m)
	var accts []string
	for _, j := range drain(as) {
		accts = append(accts, src.Names().Accounts.Name(j.Account))
	}
	if strings.Join(accts, ",") != "physics,physics,unmapped,unmapped,physics" {
		t.Errorf("accounts %v", accts)
	}
	if got := as.Unmapped(); !slices.Equal(got, []string{"user carol", "user dave"}) {
		t.Errorf("unmapped %v", got)
	}
	// A job keeps the account its trace gave, unless Override.
	n := &Names{}
	own := n.Accounts.ID("own")
	n.Users.ID("alice")
	keep := []Job{{ID: 1, User: 0, Group: Unset, Account: own}}
	for _, override := range []bool{false, true} {
		src := NewSliceSource(slices.Clone(keep), n, Header{})
		mm := *m
		mm.Override = override
		j := drain(MapAccounts(src, &mm))[0]
		if got, want := n.Accounts.Name(j.Account), map[bool]string{false: "own", true: "physics"}[override]; got != want {
			t.Errorf("override %v: account %q, want %q", override, got, want)
		}
	}

	bad := []struct{ in, want string }{
		{"name,acct\n", `map.csv:1: header: want columns user,account or group,account, got "name,acct"`},
		{"user,account\nalice,a\nalice,b\n", `map.csv:3: "alice" mapped twice (first on line 2)`},
		{"group,account\nphys\n", "map.csv:2: 1 columns, the header has more"},
		{"", "map.csv: empty mapping: want a header user,account or group,account"},
		{"user,group,account\nu1,g1,physics\n", `map.csv:1: header: names both user and group ("user,group,account"): keep the one that picks the account`},
		{"user,account\n\"u1,physics\n", `map.csv:2: extraneous or missing " in quoted-field`},
		// A malformed header is the one problem: the next line is data,
		// not a header to complain about.
		{"\"user\"x,account\nalice,a1\n", `map.csv:1: extraneous or missing " in quoted-field`},
	}
	// Quoted fields are CSV's: "u1" is u1.
	q, err := ReadAccountCSV(strings.NewReader("\"user\",\"account\"\n\"u1\",\"Physics\"\n"), "map.csv")
	if err != nil || q.byUser["u1"] != "physics" {
		t.Errorf("quoted: %v, %v; want u1 -> physics", q, err)
	}
	for _, tc := range bad {
		if _, err := ReadAccountCSV(strings.NewReader(tc.in), "map.csv"); err == nil || err.Error() != tc.want {
			t.Errorf("ReadAccountCSV(%q) = %v, want %s", tc.in, err, tc.want)
		}
	}
	if m, err := ParseAccountMap("group", nil); err != nil || m.By != "group" {
		t.Errorf("ParseAccountMap(group) = %v, %v", m, err)
	}
	open := func(string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("group,account\nphys,p\n")), nil
	}
	if m, err := ParseAccountMap("m.csv", open); err != nil || m.byGroup["phys"] != "p" {
		t.Errorf("ParseAccountMap(csv) = %v, %v", m, err)
	}
	if _, err := ParseShareStrategy("fair"); err == nil || err.Error() != `unknown share strategy "fair": want equal or usage` {
		t.Errorf("ParseShareStrategy: %v", err)
	}
}

func TestDumpNames(t *testing.T) {
	d := &AssocDump{Cluster: "", Accounts: []AssocAccount{{Name: "o'neil:x", Fairshare: 2, Users: []string{"a'b"}}}}
	want := "Cluster - 'none':Fairshare=1\nParent - 'root'\n" +
		"Account - 'o_neil_x':Description='o_neil_x':Organization='o_neil_x':Fairshare=2\n" +
		"Parent - 'o_neil_x'\nUser - 'a_b':DefaultAccount='o_neil_x':Fairshare=1\n"
	if got := dumpText(t, d); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

package fairshare

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Shares is an association's Fairshare setting. Parent is sacctmgr's
// Fairshare=parent (SLURMDB_FS_USE_PARENT): the association then competes
// with its parent's share, and its children are hoisted to the nearest
// ancestor that has real shares.
type Shares struct {
	Raw    uint32
	Parent bool
}

// UseParentShares is the number Slurm stores for Fairshare=parent
// (SLURMDB_FS_USE_PARENT); sacctmgr dump files may print it literally.
const UseParentShares = 0x7FFFFFFF

// RootName is the account of the root association (index 0).
const RootName = "root"

// Errors returned by the Tree builder, wrapped with the offending names.
var (
	ErrDuplicate     = errors.New("duplicate association")
	ErrUnknownParent = errors.New("unknown parent account")
	ErrFinalized     = errors.New("tree already finalized")
	ErrNotFinalized  = errors.New("tree not finalized")
	ErrEmptyName     = errors.New("empty name")
)

type node struct {
	account   string
	user      string
	partition string // a user association's partition, "" for none
	isUser    bool
	shares    Shares
	prio      uint32
	prioSet   bool
	parent    int32
}

type userKey struct{ account, user, partition string }

// Fold is the form of an account, user or partition name the tree keys
// on: lower case. sacctmgr stores account and partition names, and user
// names unless slurmdbd has PreserveCaseUser, in lower case
// (file_functions.c _parse_options, sacctmgr.c user_case_norm), and
// assoc_mgr.c _find_assoc_rec compares all three with xstrcasecmp, so a
// trace or usage table written with capitals names the same association.
func Fold(name string) string { return strings.ToLower(name) }

// Tree is the association tree used for fair-share. Index 0 is root;
// accounts and user associations follow in insertion order, which is also
// the order of every children list, so results never depend on map
// iteration. A user association is (account, user, partition), as
// assoc_mgr keeps them: the same user may have one association per
// partition in an account besides its partition-less one. Names are kept
// as added (the readers fold them as sacctmgr stores them) and matched
// folded (see Fold), so "A" and "a" are one name.
type Tree struct {
	cluster   string
	nodes     []node
	accounts  map[string]int32
	users     map[userKey]int32
	nUsers    int
	finalized bool

	depth       []int32
	kids        []int32 // direct children, flattened, by kidStart
	kidStart    []int32
	fsParent    []int32
	fsKids      []int32 // fair-share children (after parent hoisting)
	fsStart     []int32
	levelShares []uint32
	normFT      []float64
	normClassic []float64
	prioEff     []uint32
	maxPrio     uint32
	order       []int32 // sshare row order

	limits map[int]Limits // association limits from the dump, by index
}

// Limits are an association's limits as the sacctmgr dump gives them:
// counts (-1 unset), TRES lists as written ("cpu=8,gres/gpu=4"), MaxWall
// in seconds (-1 unset). The policy layer reads and applies them.
type Limits struct {
	GrpJobs, MaxJobs int
	GrpTRES, MaxTRES string
	MaxWall          int64
	// GrpSubmitJobs and MaxSubmitJobs count pending and running jobs;
	// GrpJobsAccrue and MaxJobsAccrue pending jobs accruing age.
	GrpSubmit, MaxSubmit         int
	GrpJobsAccrue, MaxJobsAccrue int
	// GrpTRESMins and GrpTRESRunMins are TRES-minute lists; GrpWall is in
	// seconds (-1 unset).
	GrpTRESMins, GrpTRESRunMins string
	GrpWall                     int64
	// MaxTRESPerNode caps a job's TRES divided by its node count.
	MaxTRESPerNode string
	// QOS is the association's QOS list as written, lower case: names
	// ("normal,high"), or changes to its parent's list ("+high,-low");
	// "" inherits the parent's (see Tree.ValidQOS).
	QOS string
}

// NoLimits is a Limits with nothing set.
func NoLimits() Limits {
	return Limits{GrpJobs: -1, MaxJobs: -1, MaxWall: -1, GrpSubmit: -1, MaxSubmit: -1,
		GrpJobsAccrue: -1, MaxJobsAccrue: -1, GrpWall: -1}
}

// count is the job-count limit a lower-case dump option sets, nil for
// other options.
func (l *Limits) count(opt string) *int {
	switch opt {
	case "grpjobs":
		return &l.GrpJobs
	case "maxjobs":
		return &l.MaxJobs
	case "grpsubmitjobs", "grpsubmit":
		return &l.GrpSubmit
	case "maxsubmitjobs", "maxsubmit":
		return &l.MaxSubmit
	case "grpjobsaccrue":
		return &l.GrpJobsAccrue
	case "maxjobsaccrue":
		return &l.MaxJobsAccrue
	}
	return nil
}

// tresList is the TRES list a lower-case dump option sets, nil for other
// options.
func (l *Limits) tresList(opt string) *string {
	switch opt {
	case "grptres":
		return &l.GrpTRES
	case "maxtres", "maxtresperjob":
		return &l.MaxTRES
	case "grptresmins":
		return &l.GrpTRESMins
	case "grptresrunmins":
		return &l.GrpTRESRunMins
	case "maxtrespernode", "maxtrespn":
		return &l.MaxTRESPerNode
	}
	return nil
}

// SetLimits records association i's limits.
func (t *Tree) SetLimits(i int, l Limits) {
	if l == NoLimits() {
		return
	}
	if t.limits == nil {
		t.limits = map[int]Limits{}
	}
	t.limits[i] = l
}

// AssocLimits returns association i's limits, and false when it has none.
func (t *Tree) AssocLimits(i int) (Limits, bool) {
	l, ok := t.limits[i]
	return l, ok
}

// NewTree returns a tree holding only the root association.
func NewTree() *Tree {
	t := &Tree{
		accounts: map[string]int32{RootName: 0},
		users:    map[userKey]int32{},
	}
	t.nodes = append(t.nodes, node{account: RootName, parent: -1})
	return t
}

// SetCluster records the cluster name (from a dump's Cluster line).
func (t *Tree) SetCluster(name string) { t.cluster = name }

// Cluster is the cluster name recorded with SetCluster.
func (t *Tree) Cluster() string { return t.cluster }

// AddAccount adds account name under parent ("" means root). prio is the
// association Priority; nil leaves it unset so it is inherited.
func (t *Tree) AddAccount(name, parent string, s Shares, prio *uint32) error {
	if t.finalized {
		return ErrFinalized
	}
	if name == "" {
		return fmt.Errorf("account: %w", ErrEmptyName)
	}
	if parent == "" {
		parent = RootName
	}
	if _, ok := t.accounts[Fold(name)]; ok {
		return fmt.Errorf("account %q: %w", name, ErrDuplicate)
	}
	p, ok := t.accounts[Fold(parent)]
	if !ok {
		return fmt.Errorf("account %q: parent %q: %w", name, parent, ErrUnknownParent)
	}
	t.accounts[Fold(name)] = int32(len(t.nodes))
	t.nodes = append(t.nodes, newNode(name, "", false, s, prio, p))
	return nil
}

// AddUser adds the partition-less association (account, user) ("" account
// means root). The same user may be added under several accounts.
func (t *Tree) AddUser(user, account string, s Shares, prio *uint32) error {
	return t.AddUserPartition(user, account, "", s, prio)
}

// AddUserPartition adds the association (account, user, partition); ""
// partition is the partition-less one. Jobs of that partition are charged
// to it (see LookupJob).
func (t *Tree) AddUserPartition(user, account, partition string, s Shares, prio *uint32) error {
	if t.finalized {
		return ErrFinalized
	}
	if user == "" {
		return fmt.Errorf("user: %w", ErrEmptyName)
	}
	if account == "" {
		account = RootName
	}
	p, ok := t.accounts[Fold(account)]
	if !ok {
		return fmt.Errorf("user %q: account %q: %w", user, account, ErrUnknownParent)
	}
	account = t.nodes[p].account // a user association shows its account as added
	k := userKey{Fold(account), Fold(user), Fold(partition)}
	if _, ok := t.users[k]; ok {
		if partition != "" {
			return fmt.Errorf("user %q in account %q, partition %q: %w", user, account, partition, ErrDuplicate)
		}
		return fmt.Errorf("user %q in account %q: %w", user, account, ErrDuplicate)
	}
	t.users[k] = int32(len(t.nodes))
	nd := newNode(account, user, true, s, prio, p)
	nd.partition = partition
	t.nodes = append(t.nodes, nd)
	t.nUsers++
	return nil
}

func newNode(account, user string, isUser bool, s Shares, prio *uint32, parent int32) node {
	n := node{account: account, user: user, isUser: isUser, shares: s, parent: parent}
	if prio != nil {
		n.prio, n.prioSet = *prio, true
	}
	return n
}

// Finalize freezes the tree and computes the fair-share structure exactly as
// assoc_mgr.c does: fs_parent hoisting (_set_assoc_parent_and_user),
// level_shares, and both normalised-share variants
// (_normalize_assoc_shares_traditional and _fair_tree). It is idempotent.
func (t *Tree) Finalize() error {
	if t.finalized {
		return nil
	}
	n := len(t.nodes)
	t.depth = make([]int32, n)
	t.fsParent = make([]int32, n)
	parents := make([]int32, n)
	for i := range n {
		p := t.nodes[i].parent
		parents[i] = p
		if i == 0 {
			t.fsParent[0] = -1
			continue
		}
		t.depth[i] = t.depth[p] + 1
		// fs_parent: the nearest strict ancestor whose shares are not
		// "parent" (root always qualifies). This covers both cases of
		// _set_assoc_parent_and_user: a "parent" association, and a normal
		// one whose direct parent is "parent".
		// Ancestors precede descendants, so a "parent" direct parent's own
		// fs_parent is already known.
		if p != 0 && t.nodes[p].shares.Parent {
			t.fsParent[i] = t.fsParent[p]
		} else {
			t.fsParent[i] = p
		}
	}
	t.kids, t.kidStart = group(parents)
	t.fsKids, t.fsStart = group(t.fsParent)

	// level_shares: sum over X's fs-children of their raw shares; a
	// "parent" child contributes the recursive sum of its own fs-children
	// (always empty in practice). uint32 arithmetic wraps as in Slurm.
	sum := make([]uint32, n)
	for x := n - 1; x >= 0; x-- {
		var s uint32
		for _, c := range t.fsKids[t.fsStart[x]:t.fsStart[x+1]] {
			if t.nodes[c].shares.Parent {
				s += sum[c]
			} else {
				s += t.nodes[c].shares.Raw
			}
		}
		sum[x] = s
	}
	t.levelShares = make([]uint32, n)
	for i := 1; i < n; i++ {
		t.levelShares[i] = sum[t.fsParent[i]]
	}

	t.normFT = make([]float64, n)
	t.normClassic = make([]float64, n)
	for i := 1; i < n; i++ {
		t.normFT[i] = t.normSharesFairTree(i)
		t.normClassic[i] = t.normSharesClassic(i)
	}

	t.prioEff = make([]uint32, n)
	for i := 1; i < n; i++ {
		nd := t.nodes[i]
		if nd.prioSet {
			t.prioEff[i] = nd.prio
		} else {
			t.prioEff[i] = t.prioEff[nd.parent]
		}
		t.maxPrio = max(t.maxPrio, t.prioEff[i])
	}
	if t.nodes[0].prioSet {
		t.prioEff[0] = t.nodes[0].prio
		t.maxPrio = max(t.maxPrio, t.prioEff[0])
	}

	t.order = t.sshareOrder()
	t.finalized = true
	return nil
}

// group returns, for every index x, the indices whose key is x, in index
// order (a stable counting sort), flattened with start offsets.
func group(key []int32) (flat, start []int32) {
	n := len(key)
	start = make([]int32, n+1)
	for _, k := range key {
		if k >= 0 {
			start[k+1]++
		}
	}
	for i := range n {
		start[i+1] += start[i]
	}
	flat = make([]int32, start[n])
	next := slices.Clone(start[:n])
	for i, k := range key {
		if k >= 0 {
			flat[next[k]] = int32(i)
			next[k]++
		}
	}
	return flat, start
}

// normSharesFairTree is _normalize_assoc_shares_fair_tree: S = shares /
// level_shares among fs-siblings; a "parent" association shows its
// fs_parent's value. Root (and anything resolving to root) shows 0.
func (t *Tree) normSharesFairTree(i int) float64 {
	f := int32(i)
	if t.nodes[i].shares.Parent {
		f = t.fsParent[i]
	}
	if f <= 0 || t.levelShares[f] == 0 {
		return 0
	}
	return float64(t.nodes[f].shares.Raw) / float64(t.levelShares[f])
}

// normSharesClassic is _normalize_assoc_shares_traditional: the product of
// shares / level_shares along the direct-parent path below root, skipping
// "parent" nodes; a zero level_shares on the way makes it 0. A "parent"
// association copies its fs_parent's value (root shows 0).
func (t *Tree) normSharesClassic(i int) float64 {
	if t.nodes[i].shares.Parent {
		return t.normClassic[t.fsParent[i]] // ancestors precede descendants
	}
	v := 1.0
	for a := int32(i); a > 0; a = t.nodes[a].parent {
		nd := &t.nodes[a]
		if nd.shares.Parent {
			continue
		}
		if t.levelShares[a] == 0 {
			v = 0
		} else {
			v *= float64(nd.shares.Raw) / float64(t.levelShares[a])
		}
	}
	return v
}

// sshareOrder is slurmdb_sort_hierarchical_assoc_list (slurmdb_defs.c):
// the associations sorted by lineage with strcmp. A lineage is the path
// of account names from below root, each followed by '/', then "0-USER/"
// for a user association and "PARTITION/" for a per-partition one
// (as_mysql_assoc.c _set_lineage); root's is "/". That is a pre-order
// over the direct tree in which an account lists its users (the "0-"
// prefix sorts before most names) before its sub-accounts, and a user's
// partition-less association before its per-partition ones.
func (t *Tree) sshareOrder() []int32 {
	n := len(t.nodes)
	lineage := t.lineages()
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return strings.Compare(lineage[a], lineage[b])
	})
	return order
}

// lineages returns every association's lineage (see sshareOrder).
func (t *Tree) lineages() []string {
	lineage := make([]string, len(t.nodes))
	lineage[0] = "/"
	for i := 1; i < len(t.nodes); i++ { // ancestors precede descendants
		nd := &t.nodes[i]
		switch {
		case !nd.isUser:
			lineage[i] = lineage[nd.parent] + nd.account + "/"
		case nd.partition == "":
			lineage[i] = lineage[nd.parent] + "0-" + nd.user + "/"
		default:
			lineage[i] = lineage[nd.parent] + "0-" + nd.user + "/" + nd.partition + "/"
		}
	}
	return lineage
}

func (n *node) sortName() string {
	if n.isUser {
		return n.user
	}
	return n.account
}

func (t *Tree) valid(i int) bool { return i >= 0 && i < len(t.nodes) }

// Finalized reports whether Finalize has run.
func (t *Tree) Finalized() bool { return t.finalized }

// Len is the number of associations, root included.
func (t *Tree) Len() int { return len(t.nodes) }

// UserCount is g_user_assoc_count: the number of user associations,
// "parent" ones included. Fair Tree divides ranks by it.
func (t *Tree) UserCount() int { return t.nUsers }

// Lookup finds the partition-less association of (account, user); user ""
// names the account association itself, and ("root", "") is index 0.
// Names match case-insensitively (see Fold).
func (t *Tree) Lookup(account, user string) (int, bool) {
	return t.LookupExact(account, user, "")
}

// LookupExact finds the association (account, user, partition) and no
// other: partition "" is the partition-less one. Usage tables name an
// association this way. Names match case-insensitively (see Fold).
func (t *Tree) LookupExact(account, user, partition string) (int, bool) {
	account, user, partition = Fold(account), Fold(user), Fold(partition)
	if user == "" {
		if partition != "" {
			return 0, false
		}
		i, ok := t.accounts[account]
		return int(i), ok
	}
	i, ok := t.users[userKey{account, user, partition}]
	return int(i), ok
}

// LookupJob finds the association a job of user in account, submitted to
// partition, is charged to and takes its fair-share factor from, as
// assoc_mgr_fill_in_assoc does for job_mgr.c's job_allocate: the
// association of that partition if there is one, else the user's
// partition-less association. Names match case-insensitively.
func (t *Tree) LookupJob(account, user, partition string) (int, bool) {
	if user == "" {
		return 0, false
	}
	if partition != "" {
		if i, ok := t.LookupExact(account, user, partition); ok {
			return i, true
		}
	}
	return t.LookupExact(account, user, "")
}

// Account is the account of association i (its own name for an account).
func (t *Tree) Account(i int) string {
	if !t.valid(i) {
		return ""
	}
	return t.nodes[i].account
}

// User is the user of association i, "" for root and accounts.
func (t *Tree) User(i int) string {
	if !t.valid(i) {
		return ""
	}
	return t.nodes[i].user
}

// Name is the user name of a user association and the account name
// otherwise, as sshare and fair_tree.c's debug output label them.
func (t *Tree) Name(i int) string {
	if !t.valid(i) {
		return ""
	}
	return t.nodes[i].sortName()
}

// Partition is the partition of a per-partition user association, ""
// otherwise.
func (t *Tree) Partition(i int) string {
	if !t.valid(i) {
		return ""
	}
	return t.nodes[i].partition
}

// IsUser reports whether association i is a (user, account) pair.
func (t *Tree) IsUser(i int) bool { return t.valid(i) && t.nodes[i].isUser }

// Parent is the direct parent of i (-1 for root and invalid indices).
func (t *Tree) Parent(i int) int {
	if !t.valid(i) {
		return -1
	}
	return int(t.nodes[i].parent)
}

// Shares is association i's Fairshare setting (zero for root).
func (t *Tree) Shares(i int) Shares {
	if !t.valid(i) {
		return Shares{}
	}
	return t.nodes[i].shares
}

// Depth is the distance from root along direct parents (root is 0); it is
// also the indentation sshare gives an account name.
func (t *Tree) Depth(i int) int {
	if !t.finalized || !t.valid(i) {
		return 0
	}
	return int(t.depth[i])
}

// FSParent is the association i competes under (fs_assoc_ptr): the nearest
// ancestor whose shares are not "parent"; -1 for root.
func (t *Tree) FSParent(i int) int {
	if !t.finalized || !t.valid(i) {
		return -1
	}
	return int(t.fsParent[i])
}

// Children returns the direct children of i in insertion order (a copy).
func (t *Tree) Children(i int) []int {
	if !t.finalized || !t.valid(i) {
		return nil
	}
	return toInts(t.kids[t.kidStart[i]:t.kidStart[i+1]])
}

// FSChildren returns the associations competing under i after "parent"
// hoisting (children_list), in insertion order (a copy).
func (t *Tree) FSChildren(i int) []int {
	if !t.finalized || !t.valid(i) {
		return nil
	}
	return toInts(t.fsKids[t.fsStart[i]:t.fsStart[i+1]])
}

func toInts(s []int32) []int {
	out := make([]int, len(s))
	for k, v := range s {
		out[k] = int(v)
	}
	return out
}

// LevelShares is the sum of raw shares among i's fs-siblings (0 for root).
func (t *Tree) LevelShares(i int) uint32 {
	if !t.finalized || !t.valid(i) {
		return 0
	}
	return t.levelShares[i]
}

// NormShares is sshare's NormShares of i for algorithm a: per level under
// Fair Tree, the product down the tree otherwise (assoc_mgr.c
// assoc_mgr_normalize_assoc_shares).
func (t *Tree) NormShares(i int, a Algorithm) float64 {
	if !t.finalized || !t.valid(i) {
		return 0
	}
	if a == FairTree {
		return t.normFT[i]
	}
	return t.normClassic[i]
}

// Priority is the association Priority of i, inherited from the nearest
// ancestor that sets it (as sacctmgr stores it); 0 when unset (INFINITE).
func (t *Tree) Priority(i int) uint32 {
	if !t.finalized || !t.valid(i) {
		return 0
	}
	return t.prioEff[i]
}

// NormPriority is the multifactor Assoc factor: Priority / the maximum
// Priority of all associations, 0 when no association sets one.
func (t *Tree) NormPriority(i int) float64 {
	if !t.finalized || !t.valid(i) || t.maxPrio == 0 {
		return 0
	}
	return float64(t.prioEff[i]) / float64(t.maxPrio)
}

// Order returns the associations in sshare's row order (a copy).
func (t *Tree) Order() []int {
	if !t.finalized {
		return nil
	}
	return toInts(t.order)
}

package fairshare

import (
	"math"
	"slices"
)

// FairTreeLevelFS is Fair Tree's level fair-share of one association among
// its fs-siblings (fair_tree.c _calc_assoc_fs):
//
//	LF = S / U,  S = shares_norm (Fair Tree), U = usage_raw / fs_parent usage_raw
//
// Range [0, +Inf]; LF > 1 means under-served. Special cases: a "parent"
// user gets +Inf (top of its account, subject to ties), a "parent" account
// gets NO_VAL (4294967294, sorting just below +Inf; it has no children of
// its own); S == 0 gives 0 whatever the usage; U == 0 with S > 0 gives
// +Inf.
func FairTreeLevelFS(s, u float64, useParent, isUser bool) float64 {
	if useParent {
		if isUser {
			return math.Inf(1)
		}
		return noVal
	}
	if s == 0 {
		return 0
	}
	return s / u
}

// fairTree is _apply_priority_fs: level fair-share for every association,
// then the pre-order ranking of fair_tree.c _calc_tree_fs with the code's
// tie behaviour (_cmp_level_fs).
// Each user's factor is rank / g_user_assoc_count; the best user gets 1.
func (e *Engine) fairTree() {
	t := e.tree
	e.levelFS[0], e.levelLo[0] = noVal, 0
	e.efctv[0] = 1
	e.norm[0] = 0
	n := t.UserCount()
	rank, rnt := n, n
	e.rankSiblings(0, false, &rank, &rnt, n)
}

// rankSiblings is _calc_tree_fs for the fs-children of x. Siblings are
// stable-sorted by level_fs descending, users before accounts on equal
// values. A user takes the current rank when tied with the previous
// sibling (equal level_fs, or first in a list entered tied), else rank =
// rnt; rnt drops by one per user (competition ranking 1,1,3). Tied sibling
// accounts are NOT merged (the code's _count_tied_accounts always returns
// 0): an account tied with its predecessor is entered with accountTied, so
// its best user inherits the current rank.
func (e *Engine) rankSiblings(x int32, accountTied bool, rank, rnt *int, nUsers int) {
	t := e.tree
	lo, hi := t.fsStart[x], t.fsStart[x+1]
	if lo == hi {
		return
	}
	sib := e.sortBuf[lo:hi]
	if !e.sorted[x] {
		copy(sib, t.fsKids[lo:hi])
	}
	nan := false
	for _, c := range sib {
		e.calcLevelFS(c)
		nan = nan || math.IsNaN(e.levelFS[c])
	}
	if nan {
		// NaN compares unequal to everything: only the stable sort of
		// the tree's order itself gives its order.
		copy(sib, t.fsKids[lo:hi])
		slices.SortStableFunc(sib, e.cmpLF)
		e.sorted[x] = false
	} else {
		e.sortAgain(sib)
		e.sorted[x] = true
	}

	prev, prevLo := noVal, 0.0
	for i, c := range sib {
		tied := prev == e.levelFS[c] && prevLo == e.levelLo[c]
		if i == 0 && accountTied {
			tied = true
		}
		if t.nodes[c].isUser {
			if !tied {
				*rank = *rnt
			}
			e.fs[c] = float64(*rank) / float64(nUsers)
			*rnt--
		} else {
			e.fs[c] = 0
			e.rankSiblings(c, tied, rank, rnt, nUsers)
		}
		prev, prevLo = e.levelFS[c], e.levelLo[c]
	}
}

// calcLevelFS sets usage_efctv (U within the fs_parent), usage_norm and
// level_fs of association c.
func (e *Engine) calcLevelFS(c int32) {
	t := e.tree
	p := t.fsParent[c]
	u, ul := 0.0, 0.0
	if pu, pl := e.led.usage[p], e.led.usageLo[p]; pu != 0 || pl != 0 {
		u, ul = ddDiv(e.led.usage[c], e.led.usageLo[c], pu, pl)
	}
	e.efctv[c] = u
	e.norm[c] = e.usageNorm(c)
	nd := &t.nodes[c]
	e.levelFS[c], e.levelLo[c] = fairTreeLevelFSdd(e.shares[c], u, ul, nd.shares.Parent, nd.isUser)
}

// compareLevelFS is _cmp_level_fs: higher level_fs first, then users
// before accounts.
// sortAgain sorts sib (the fs-children of one account, in the order of
// the last pass) as slices.SortStableFunc(sib, e.cmpLF) sorts them in
// the tree's order: by compareLevelFS, ties in tree order (fsPos). That
// order is total, so any sort reaches it; between two passes decay
// scales every usage alike and only charges move a few siblings, so an
// insertion sort from the last order has little to do (the stable sort
// of the whole list at every calc tick was 2 % of a CEA-Curie run).
func (e *Engine) sortAgain(sib []int32) {
	cmp := func(a, b int32) int {
		if c := e.compareLevelFS(a, b); c != 0 {
			return c
		}
		return int(e.fsPos[a] - e.fsPos[b])
	}
	moves := 0
	for i := 1; i < len(sib); i++ {
		c := sib[i]
		j := i
		for ; j > 0 && cmp(c, sib[j-1]) < 0; j-- {
			sib[j] = sib[j-1]
		}
		sib[j] = c
		if moves += i - j; moves > 8*len(sib) {
			// Far from the last order (the first pass, a usage
			// reset): a sort in n log n.
			slices.SortFunc(sib, cmp)
			return
		}
	}
}

func (e *Engine) compareLevelFS(a, b int32) int {
	la, lb := e.levelFS[a], e.levelFS[b]
	if la != lb {
		if la < lb {
			return 1
		}
		return -1
	}
	if la, lb := e.levelLo[a], e.levelLo[b]; la != lb {
		if la < lb {
			return 1
		}
		return -1
	}
	ua, ub := e.tree.nodes[a].isUser, e.tree.nodes[b].isUser
	if ua == ub {
		return 0
	}
	if ua {
		return -1
	}
	return 1
}

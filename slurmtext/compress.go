package slurmtext

import (
	"sort"
	"strconv"
	"strings"
)

// Compress writes host names as a hostlist expression, as scontrol show
// hostlist does: names sharing a prefix and a digit width become one
// bracketed range list ("c[01-03,07]"), groups in order of first
// appearance. Expand(Compress(h)) holds the same names, sorted within each
// group and without duplicates.
func Compress(hosts []string) string {
	type group struct {
		prefix string
		width  int
		nums   []int
	}
	var groups []*group
	byKey := map[string]*group{}
	var out []string
	for _, h := range hosts {
		i := len(h)
		for i > 0 && h[i-1] >= '0' && h[i-1] <= '9' {
			i--
		}
		n, err := strconv.Atoi(h[i:])
		if i == len(h) || err != nil || len(h)-i > 9 || strings.ContainsAny(h[:i], "[],") {
			out = append(out, h) // no number to range over
			continue
		}
		key := h[:i] + "\x00" + strconv.Itoa(len(h)-i)
		g := byKey[key]
		if g == nil {
			g = &group{prefix: h[:i], width: len(h) - i}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.nums = append(g.nums, n)
	}
	for _, g := range groups {
		sort.Ints(g.nums)
		var b strings.Builder
		pad := func(n int) string {
			s := strconv.Itoa(n)
			return strings.Repeat("0", max(g.width-len(s), 0)) + s
		}
		count := 0
		for k := 0; k < len(g.nums); {
			e := k
			for e+1 < len(g.nums) && g.nums[e+1] <= g.nums[e]+1 {
				e++
			}
			if count > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pad(g.nums[k]))
			if g.nums[e] != g.nums[k] {
				b.WriteString("-" + pad(g.nums[e]))
			}
			count++
			k = e + 1
		}
		if len(g.nums) == 1 {
			out = append(out, g.prefix+b.String())
		} else {
			out = append(out, g.prefix+"["+b.String()+"]")
		}
	}
	return strings.Join(out, ",")
}

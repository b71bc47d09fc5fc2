package policy

import (
	"slices"
	"strconv"
	"strings"
)

// SacctString is the TRES as sacct prints AllocTRES and ReqTRES
// (slurmdb_make_tres_string_from_simple without TRES_STR_FLAG_SORT_ID):
// name=count items sorted as strings, so "billing=8,cpu=8,gres/gpu=2,
// mem=32000M,node=1"; memory in MB converted as sacct converts by
// default (convert_num_unit with CONVERT_NUM_UNIT_EXACT: to a larger unit
// while the count stays a multiple of half of it, so 65536M is 64G, 2560M
// is 2.50G and 32000M stays 32000M). Zero counts are left out, as Slurm
// leaves out TRES a job does not hold.
func (a *TRESAlloc) SacctString() string {
	if len(a.Other) == 0 {
		var buf [64]byte
		return string(a.AppendSacct(buf[:0]))
	}
	return sacctSorted(a)
}

// AppendSacct appends SacctString to b: jobs.csv writes one per job, and
// for the common TRES (billing, cpu, mem and node, which sort in that
// order) builds it in place.
func (a *TRESAlloc) AppendSacct(b []byte) []byte {
	if len(a.Other) > 0 {
		return append(b, sacctSorted(a)...)
	}
	first := len(b)
	for _, it := range [...]struct {
		name string
		n    uint64
	}{{"billing", a.Billing}, {"cpu", a.CPU}, {"mem", a.MemMB}, {"node", a.Node}} {
		if it.n == 0 {
			continue
		}
		if len(b) > first {
			b = append(b, ',')
		}
		b = append(append(b, it.name...), '=')
		if it.name == "mem" {
			b = appendConvertMB(b, it.n)
		} else {
			b = strconv.AppendUint(b, it.n, 10)
		}
	}
	return b
}

// sacctSorted is SacctString by its definition: the items, sorted.
func sacctSorted(a *TRESAlloc) string {
	items := make([]string, 0, 5+len(a.Other))
	add := func(name, val string) { items = append(items, name+"="+val) }
	if a.Billing > 0 {
		add("billing", strconv.FormatUint(a.Billing, 10))
	}
	if a.CPU > 0 {
		add("cpu", strconv.FormatUint(a.CPU, 10))
	}
	if a.MemMB > 0 {
		add("mem", ConvertMB(a.MemMB))
	}
	if a.Node > 0 {
		add("node", strconv.FormatUint(a.Node, 10))
	}
	for _, o := range a.Other {
		if o.Count > 0 {
			add(strings.ToLower(o.Name), strconv.FormatUint(o.Count, 10))
		}
	}
	slices.Sort(items)
	return strings.Join(items, ",")
}

// ConvertMB prints a count of MB as sacct does by default
// (convert_num_unit from UNIT_MEGA with CONVERT_NUM_UNIT_EXACT): divided by
// 1024 while at least 1024 and a multiple of 512, then printed whole with
// its unit letter, or with two decimals when a half is left.
func ConvertMB(mb uint64) string {
	if mb == 0 {
		return "0"
	}
	return string(appendConvertMB(nil, mb))
}

// appendConvertMB appends ConvertMB(mb) for mb > 0.
func appendConvertMB(b []byte, mb uint64) []byte {
	units := "MGTP?"
	u := 0
	num := float64(mb)
	for num >= 1024 && uint64(num)%512 == 0 && u < len(units)-1 {
		num /= 1024
		u++
	}
	if num == float64(uint64(num)) {
		return append(strconv.AppendUint(b, uint64(num), 10), units[u])
	}
	return append(strconv.AppendFloat(b, num, 'f', 2, 64), units[u])
}

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
	units := "MGTP?"
	u := 0
	num := float64(mb)
	for num >= 1024 && uint64(num)%512 == 0 && u < len(units)-1 {
		num /= 1024
		u++
	}
	if num == float64(uint64(num)) {
		return strconv.FormatUint(uint64(num), 10) + units[u:u+1]
	}
	return strconv.FormatFloat(num, 'f', 2, 64) + units[u:u+1]
}

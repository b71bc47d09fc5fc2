package workflow

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"fairsim/report"
)

// Row is one point of sweep.csv: its parameter cells and its figures.
type Row struct {
	Index  int
	Params []string
	Fields []Field
}

// Columns lays out sweep.csv: the parameter columns, the overall metrics
// (OverallNames order), then each per-account metric (AccountNames order)
// for every account any row has, accounts sorted by name. Derived from
// the rows alone, the layout is the same whether the rows come from one
// run or from merged shards.
func Columns(paramCols []string, rows []Row) []string {
	accts := map[string]bool{}
	for _, r := range rows {
		for _, f := range r.Fields {
			if _, a, ok := SplitAccountColumn(f.Name); ok {
				accts[a] = true
			}
		}
	}
	names := make([]string, 0, len(accts))
	for a := range accts {
		names = append(names, a)
	}
	slices.SortFunc(names, report.NaturalCompare)
	cols := slices.Concat(paramCols, OverallNames)
	for _, m := range AccountNames {
		for _, a := range names {
			cols = append(cols, AccountColumn(m, a))
		}
	}
	return cols
}

// WriteTable writes sweep.csv: rows in point order, one column per
// Columns entry, empty where a row has no such figure (an account that
// submitted nothing at that point, a wait when no job started).
func WriteTable(path string, paramCols []string, rows []Row) error {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b Row) int { return a.Index - b.Index })
	cols := Columns(paramCols, rows)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(cols)
	for _, r := range rows {
		vals := map[string]string{}
		for _, f := range r.Fields {
			vals[f.Name] = f.Value
		}
		rec := slices.Clone(r.Params)
		for _, c := range cols[len(paramCols):] {
			rec = append(rec, vals[c])
		}
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// writeFields writes one point's row as point.csv (name,value lines), so
// a point directory says on its own what it measured.
func writeFields(path string, paramCols []string, r Row) error {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"name", "value"})
	for i, c := range paramCols {
		w.Write([]string{c, r.Params[i]})
	}
	for _, f := range r.Fields {
		w.Write([]string{f.Name, f.Value})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// ReadTable reads a sweep.csv whose first nParams columns are parameters
// (the first of them the point index).
func ReadTable(path string, nParams int) ([]string, []Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 || len(recs[0]) < nParams || nParams < 1 || recs[0][0] != "point" {
		return nil, nil, fmt.Errorf("%s: not a sweep.csv (want a header starting with point and %d parameter columns)", path, nParams-1)
	}
	head := recs[0]
	var rows []Row
	for ln, rec := range recs[1:] {
		idx, err := strconv.Atoi(rec[0])
		if err != nil || idx < 0 {
			return nil, nil, fmt.Errorf("%s:%d: field point: %q is not a point index", path, ln+2, rec[0])
		}
		r := Row{Index: idx, Params: slices.Clone(rec[:nParams])}
		for i, c := range head[nParams:] {
			if v := rec[nParams+i]; v != "" {
				r.Fields = append(r.Fields, Field{c, v})
			}
		}
		rows = append(rows, r)
	}
	return head[:nParams], rows, nil
}

// MergeHelp is `fairsim sweep merge --help`'s description.
const MergeHelp = `Reads the sweep.yaml and sweep.csv of each shard directory, checks they belong to
one sweep and hold every point once, and writes --out DIR/sweep.csv (the same bytes a
single run of the whole sweep writes) and DIR/sweep.yaml. Point directories stay in the
shards. Without --out, the first argument is the output directory when it is not a shard.`

// Merge combines the sweep directories of shards (or of any runs of one
// sweep) into out/sweep.csv and out/sweep.yaml: byte for byte the
// sweep.csv a single run of the whole grid writes. The shards must come
// from the same grid and scenario, and together hold every point once.
// The point directories stay where the shards wrote them.
func Merge(out string, dirs []string) error {
	if out == "" {
		return fmt.Errorf("sweep merge: give --out DIR")
	}
	if len(dirs) == 0 {
		return fmt.Errorf("sweep merge: name the shard directories to merge")
	}
	var man Manifest
	var paramCols []string
	byIdx := map[int]Row{}
	from := map[int]string{}
	for k, d := range dirs {
		m, err := ReadManifest(d)
		if err != nil {
			return err
		}
		if k == 0 {
			man = m
		} else if !man.sameSweep(m) {
			return fmt.Errorf("%s and %s hold different sweeps (scenario, --set, --seeds or --starved-after differ): see their sweep.yaml", dirs[0], d)
		}
		nParams := 1 + len(m.Params)
		if m.Seeds > 1 {
			nParams++
		}
		cols, rows, err := ReadTable(filepath.Join(d, "sweep.csv"), nParams)
		if err != nil {
			return err
		}
		paramCols = cols
		for _, r := range rows {
			if r.Index >= m.Points {
				return fmt.Errorf("%s: point %d is outside the grid of %d points", d, r.Index, m.Points)
			}
			if prev, dup := from[r.Index]; dup {
				return fmt.Errorf("point %d is in both %s and %s", r.Index, prev, d)
			}
			byIdx[r.Index], from[r.Index] = r, d
		}
	}
	var missing []int
	rows := make([]Row, 0, man.Points)
	for i := 0; i < man.Points; i++ {
		r, ok := byIdx[i]
		if !ok {
			missing = append(missing, i)
			continue
		}
		rows = append(rows, r)
	}
	if len(missing) > 0 {
		return fmt.Errorf("sweep merge: %d of %d points missing (%s): a shard failed or was not named", len(missing), man.Points, listInts(missing, 10))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	man.Shard = All.String()
	if err := writeManifest(out, man); err != nil {
		return err
	}
	return WriteTable(filepath.Join(out, "sweep.csv"), paramCols, rows)
}

func listInts(v []int, limit int) string {
	var b bytes.Buffer
	for i, x := range v {
		if i == limit {
			fmt.Fprintf(&b, ", ... %d more", len(v)-limit)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// scenarioKeys lists the YAML keys of t as dotted paths (a map's entries
// as NAME, a list's elements by their own keys), stopping at output-only
// in_force, whose keys docs/scenario.md lists in one row.
func scenarioKeys(prefix string, t reflect.Type, out *[]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() == reflect.Map {
		if t.Elem().Kind() == reflect.Struct {
			scenarioKeys(prefix+".NAME", t.Elem(), out)
		}
		return
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		key := tag
		if prefix != "" {
			key = prefix + "." + tag
		}
		*out = append(*out, key)
		if key != "in_force" {
			scenarioKeys(key, f.Type, out)
		}
	}
}

// Every scenario key has a row in docs/scenario.md, written `key` with
// its full dotted path, so adding a key without documenting it fails here.
func TestScenarioKeysDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenario.md")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	scenarioKeys("", reflect.TypeOf(Scenario{}), &keys)
	if len(keys) < 80 {
		t.Fatalf("only %d keys found: the walk is broken", len(keys))
	}
	for _, k := range keys {
		if !strings.Contains(string(doc), "| `"+k+"` |") {
			t.Errorf("docs/scenario.md has no row for `%s`", k)
		}
	}
	// And the page documents no key the code lacks.
	known := map[string]bool{}
	for _, k := range keys {
		known[k] = true
	}
	for _, line := range strings.Split(string(doc), "\n") {
		if k, ok := strings.CutPrefix(line, "| `"); ok {
			k, _, _ = strings.Cut(k, "`")
			if !known[k] {
				t.Errorf("docs/scenario.md documents `%s`, which config.Scenario does not have", k)
			}
		}
	}
}

package fairshare

import (
	"fairsim/internal/shared"
	"os"
	"path/filepath"
	"testing"
)

// realSitesDir is ../shared/real-sites beside the repository.
func realSitesDir() (string, bool) {
	d := shared.Dir()
	if d == "" {
		return "", false
	}
	return filepath.Join(d, "real-sites"), true
}

// The real sites' dumps load as they are. coldfront-parents: 7 levels
// counting the cluster above root (accounts down to depth 4, users to 5),
// user u1 in three accounts (a2, a4, a8: the file has no fourth, whatever
// its README says) and a user named like its account (a7); 8 accounts and
// 9 user associations. coldfront-associations: users with
// Fairshare=parent, who compete under physics.
func TestRealSiteDumps(t *testing.T) {
	dir, ok := realSitesDir()
	if !ok {
		t.Skip("no ../shared/real-sites beside the repository")
	}
	tests := []struct {
		file                    string
		cluster                 string
		assocs, users, maxDepth int
		check                   func(t *testing.T, tr *Tree)
	}{
		{"coldfront-associations.dump.cfg", "alpha", 6, 4, 2, func(t *testing.T, tr *Tree) {
			for _, u := range []string{"jane", "john", "larry"} {
				i := mustLookup(t, tr, "physics", u)
				if !tr.Shares(i).Parent || tr.FSParent(i) != mustLookup(t, tr, "physics", "") {
					t.Errorf("%s: shares %+v fs parent %d, want parent under physics", u, tr.Shares(i), tr.FSParent(i))
				}
			}
		}},
		{"coldfront-parents.dump.cfg", "test_cluster", 18, 9, 5, func(t *testing.T, tr *Tree) {
			n := 0
			for i := 0; i < tr.Len(); i++ {
				if tr.User(i) == "u1" {
					n++
				}
			}
			if n != 3 {
				t.Errorf("u1 has %d associations, want 3", n)
			}
			// root → a1 → a3 → a5 → a6 → (a6, u3)
			i := mustLookup(t, tr, "a6", "u3")
			var path []string
			for ; i >= 0; i = tr.Parent(i) {
				path = append(path, tr.Name(i))
			}
			if got := len(path); got != 6 || path[1] != "a6" || path[4] != "a1" {
				t.Errorf("path to u3 in a6: %v", path)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tr, warns, err := ReadAssocFile(tc.file, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(warns) != 0 {
				t.Errorf("warnings %v", warns)
			}
			maxDepth := 0
			for i := 0; i < tr.Len(); i++ {
				maxDepth = max(maxDepth, tr.Depth(i))
			}
			if tr.Cluster() != tc.cluster || tr.Len() != tc.assocs || tr.UserCount() != tc.users || maxDepth != tc.maxDepth {
				t.Errorf("cluster %q, %d associations, %d users, depth %d; want %q, %d, %d, %d",
					tr.Cluster(), tr.Len(), tr.UserCount(), maxDepth, tc.cluster, tc.assocs, tc.users, tc.maxDepth)
			}
			tc.check(t, tr)
		})
	}
}

package main

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds a headless-capable Chromium, or skips the test saying
// how to install one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const why = "chromium not installed: the browser test needs Debian's chromium (apt-get install -y chromium)"
	if os.Getenv("CI") != "" {
		t.Fatal(why + "; .ci/run installs it, so in CI its absence is a failure")
	}
	t.Skip(why)
	return ""
}

// headless runs Chromium on a local file with no network, profile or GPU.
func headless(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// svgSizes opens a copy of the page with a script that lists the rendered
// size of every <svg>, and returns the sizes from Chromium's DOM dump.
func svgSizes(t *testing.T, bin, page string) []string {
	t.Helper()
	html := readFile(t, page)
	probe := `<script>document.body.setAttribute("data-svg-sizes", Array.from(document.querySelectorAll("svg")).map(s => { const r = s.getBoundingClientRect(); return Math.round(r.width) + "x" + Math.round(r.height) }).join(" "))</script></body>`
	check := filepath.Join(filepath.Dir(page), "probe.html")
	os.WriteFile(check, []byte(strings.Replace(html, "</body>", probe, 1)), 0o644)
	dom := headless(t, bin, "--window-size=1280,2000", "--dump-dom", "file://"+check)
	m := regexp.MustCompile(`data-svg-sizes="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no sizes in the DOM dump (script did not run?):\n%.500s", dom)
	}
	return strings.Fields(m[1])
}

// The run report opens in headless Chromium with every plot drawn at a
// visible size, and a screenshot of it is not blank; the sweep report's
// plots render too.
func TestReportInChromium(t *testing.T) {
	bin := chromium(t)
	tmp := t.TempDir()
	run := filepath.Join(tmp, "run")
	mustRun(t, "run", "--quiet", "--out", run)
	out := mustRun(t, "report", run)
	page := filepath.Join(run, "report.html")
	if !strings.Contains(out, page) {
		t.Errorf("report said %q", out)
	}
	figures := strings.Count(readFile(t, page), "<svg ")
	if figures < 4 {
		t.Fatalf("%d plots in the run report, want at least 4", figures)
	}
	sizes := svgSizes(t, bin, page)
	t.Logf("run report plots rendered at %v", sizes)
	if len(sizes) != figures {
		t.Errorf("Chromium rendered %d svg elements, the page has %d", len(sizes), figures)
	}
	for i, s := range sizes {
		var w, h int
		fmt.Sscanf(s, "%dx%d", &w, &h)
		if w < 300 || h < 150 {
			t.Errorf("plot %d rendered at %s: not visible", i, s)
		}
	}

	shot := filepath.Join(tmp, "shot.png")
	headless(t, bin, "--window-size=1280,3000", "--screenshot="+shot, "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// Count non-white pixels and distinct colours on a grid.
	b := img.Bounds()
	ink, colours, n := 0, map[uint32]bool{}, 0
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			n++
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				ink++
			}
			colours[(r>>12)<<8|(g>>12)<<4|bl>>12] = true
		}
	}
	if frac := float64(ink) / float64(n); frac < 0.02 || len(colours) < 10 {
		t.Errorf("screenshot looks blank: %.1f%% ink, %d colours", 100*frac, len(colours))
	}

	sweep := filepath.Join(tmp, "sweep")
	mustRun(t, "sweep", "--scenario", "../../workflow/testdata/tiny.yaml", "--quiet", "--out", sweep,
		"--set", "PriorityWeightAge=0,10000000", "--set", "bf_window=60,1440")
	mustRun(t, "report", sweep)
	spage := filepath.Join(sweep, "report.html")
	want := strings.Count(readFile(t, spage), "<svg ")
	got := svgSizes(t, bin, spage)
	if len(got) != want || want < 10 {
		t.Errorf("sweep report: %d svg rendered of %d", len(got), want)
	}
	for i, s := range got {
		var w, h int
		fmt.Sscanf(s, "%dx%d", &w, &h)
		if w < 200 || h < 100 {
			t.Errorf("sweep plot %d rendered at %s", i, s)
		}
	}
}

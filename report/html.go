package report

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Figure is one plot of an HTML report; it is also written as
// report/<Name>.svg and report/<Name>.png beside report.html.
type Figure struct {
	Name    string
	Title   string
	Caption string
	Plot    *plot.Plot
	W, H    vg.Length
	svg     template.HTML
}

// HTMLTable is a table of an HTML report.
type HTMLTable struct {
	Caption string
	Head    []string
	Rows    [][]string
}

// Section is a heading with its text, tables and figures.
type Section struct {
	Title   string
	Intro   string
	Notes   []string
	Tables  []HTMLTable
	Figures []*Figure
	// Grid lays the figures out two abreast (small multiples).
	Grid bool
}

// Page is a whole report.
type Page struct {
	Title    string
	Subtitle string
	Sections []Section
}

// PlotDir is the folder, inside the reported directory, of the plot
// files.
const PlotDir = "report"

// Render writes dir/report.html, with every plot inlined as SVG (no
// script, no stylesheet or font fetched: the file opens offline), and each
// plot as report/NAME.svg and report/NAME.png.
func (p *Page) Render(dir string) (string, error) {
	pd := filepath.Join(dir, PlotDir)
	if err := os.MkdirAll(pd, 0o755); err != nil {
		return "", err
	}
	var figs []*Figure
	for _, s := range p.Sections {
		figs = append(figs, s.Figures...)
	}
	// Rasterising dominates; plots are independent, so draw them on
	// every core, and report the first error in page order.
	errs := make([]error, len(figs))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, f := range figs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = f.render(pd)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return "", err
		}
	}
	var b bytes.Buffer
	if err := pageTemplate().Execute(&b, p); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "report.html")
	return out, os.WriteFile(out, b.Bytes(), 0o644)
}

// render draws the figure as SVG (kept for inlining) and PNG files.
func (f *Figure) render(dir string) error {
	if f.W == 0 {
		f.W, f.H = 7*vg.Inch, 4.2*vg.Inch
	}
	wt, err := plotWriterTo(f.Plot, f.W, f.H, "svg")
	if err != nil {
		return fmt.Errorf("%s.svg: %w", f.Name, err)
	}
	var svg bytes.Buffer
	if _, err := wt.WriteTo(&svg); err != nil {
		return fmt.Errorf("%s.svg: %w", f.Name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, f.Name+".svg"), svg.Bytes(), 0o644); err != nil {
		return err
	}
	if err := savePlot(f.Plot, f.W, f.H, filepath.Join(dir, f.Name+".png")); err != nil {
		return fmt.Errorf("%s.png: %w", f.Name, err)
	}
	f.svg = template.HTML(inlineSVG(svg.String(), f.Title))
	return nil
}

// inlineSVG turns a standalone SVG document into an element for HTML:
// the XML prolog and comments go, and the root gets a role and a label
// for screen readers.
func inlineSVG(doc, label string) string {
	i := strings.Index(doc, "<svg")
	if i < 0 {
		return ""
	}
	doc = doc[i:]
	return strings.Replace(doc, "<svg", `<svg role="img" aria-label="`+template.HTMLEscapeString(label)+`"`, 1)
}

// SVG is the figure's inline SVG, once rendered.
func (f *Figure) SVG() template.HTML { return f.svg }

// pageTemplate is parsed when first used: only the report command does.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; margin: 1.5em auto; max-width: 1100px; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
.sub { color: #555; margin-top: 0; }
.note { color: #7a4b00; background: #fff6e0; padding: 0.3em 0.6em; border-left: 3px solid #e0a000; }
figure { margin: 1.2em 0; }
figure svg { display: block; width: 100%; max-width: 900px; height: auto; border: 1px solid #eee; background: #fff; }
figcaption { color: #444; font-size: 0.92em; margin-top: 0.3em; }
figcaption a { color: #0060a0; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
.scroll { overflow-x: auto; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(480px, 1fr)); gap: 0 1.2em; }
.grid h3 { font-size: 0.95em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{with .Subtitle}}<p class="sub">{{.}}</p>{{end}}
{{range .Sections}}
<section>
<h2>{{.Title}}</h2>
{{with .Intro}}<p>{{.}}</p>{{end}}
{{range .Notes}}<p class="note">{{.}}</p>{{end}}
{{range .Tables}}<div class="scroll"><table>
{{with .Caption}}<caption>{{.}}</caption>{{end}}
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{end}}
{{if .Grid}}<div class="grid">{{end}}
{{range .Figures}}<figure id="{{.Name}}">
<h3>{{.Title}}</h3>
{{.SVG}}
<figcaption>{{.Caption}} Files: <a href="report/{{.Name}}.svg">{{.Name}}.svg</a>, <a href="report/{{.Name}}.png">{{.Name}}.png</a>.</figcaption>
</figure>
{{end}}
{{if .Grid}}</div>{{end}}
</section>
{{end}}
</body>
</html>
`))
})

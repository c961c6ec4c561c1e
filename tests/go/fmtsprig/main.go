// The reference for ipreuse's Go fmt and sprig functions (tests/it/go_fmt_sprig.rs): Go's own
// text/template with sprig's HermeticTxtFuncMap, as CAPI renders a ClusterClass patch template.
//
// It reads JSON lines {"func": NAME, "args": [ARG, ...]} from stdin and, for each, executes
// the template `{{ NAME .a0 .a1 ... }}` over the arguments and writes one JSON line:
// {"out": TEXT} (what the action prints) or {"err": MESSAGE} (text/template's error without its
// "template: t:1:2: executing ... at <...>: " and "error calling NAME: " prefixes).
//
// An argument is a JSON value as CAPI's variables hold it (numbers are float64), or one of:
// {"$int": N} (a Go int, as a literal or len gives), {"$uint": N} (a uint64, as semver's
// fields), {"$missing": true} (a key the data does not have), {"$version": "1.2.3"} (sprig's
// semver of it), {"$strlist": [...]} ([]string), {"$strmap": {...}} (map[string]string).
//
// Build it in GOPATH mode over Debian's packages (golang-go, golang-github-masterminds-sprig-dev),
// with symlinks supplying sprig's and semver's /v3 import paths; the test does that.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"text/template"

	semver "github.com/Masterminds/semver/v3"
	sprig "github.com/Masterminds/sprig/v3"
)

type call struct {
	Func string        `json:"func"`
	Args []interface{} `json:"args"`
}

type missing struct{}

func decode(v interface{}) (interface{}, error) {
	switch x := v.(type) {
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			d, err := decode(e)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case map[string]interface{}:
		if n, ok := x["$int"]; ok {
			return int(n.(float64)), nil
		}
		if n, ok := x["$uint"]; ok {
			return uint64(n.(float64)), nil
		}
		if _, ok := x["$missing"]; ok {
			return missing{}, nil
		}
		if s, ok := x["$version"]; ok {
			return semver.NewVersion(s.(string))
		}
		if l, ok := x["$strlist"]; ok {
			out := []string{}
			for _, e := range l.([]interface{}) {
				out = append(out, e.(string))
			}
			return out, nil
		}
		if m, ok := x["$strmap"]; ok {
			out := map[string]string{}
			for k, e := range m.(map[string]interface{}) {
				out[k] = e.(string)
			}
			return out, nil
		}
		out := map[string]interface{}{}
		for k, e := range x {
			d, err := decode(e)
			if err != nil {
				return nil, err
			}
			out[k] = d
		}
		return out, nil
	default:
		return v, nil
	}
}

var prefix = regexp.MustCompile(`^template: t:\d+:\d+: executing "t" at <[^>]*>: (error calling \w+: )?`)

func run(c call) (string, error) {
	data := map[string]interface{}{}
	var refs []string
	for i, a := range c.Args {
		d, err := decode(a)
		if err != nil {
			return "", fmt.Errorf("bad test argument: %v", err)
		}
		key := fmt.Sprintf("a%d", i)
		if _, ok := d.(missing); ok {
			key = fmt.Sprintf("absent%d", i)
		} else {
			data[key] = d
		}
		refs = append(refs, "."+key)
	}
	text := "{{ " + c.Func + " " + strings.Join(refs, " ") + " }}"
	t, err := template.New("t").Funcs(sprig.HermeticTxtFuncMap()).Parse(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("%s", prefix.ReplaceAllString(err.Error(), ""))
	}
	return b.String(), nil
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var c call
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "bad line:", err)
			os.Exit(2)
		}
		text, err := run(c)
		if err != nil {
			enc.Encode(map[string]string{"err": err.Error()})
		} else {
			enc.Encode(map[string]string{"out": text})
		}
	}
}

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/commands"
	"hashline-ls/internal/testenv"
)

// The terminal agents' tests share this file: a model played by a server
// this test runs on 127.0.0.1, which speaks each agent's own wire and
// decides each step from what the agent sent back, as a model would (it
// reads only what the agent shows it); the session that model plays; an
// agent's run kept off the network; and the checks of what reached the
// model.

// received is one tool result as the model got it from the agent.
type received struct {
	CallID string
	// Output is what the agent gave the model for the call: the tool
	// result's part of its request, decoded from the wire's JSON.
	Output string
	// IsError is the agent's own error flag on the result, where its wire
	// has one.
	IsError bool
}

// step is the model's next move: a call of one of the MCP server's tools,
// or, when Tool is empty, a final message.
type step struct {
	Tool    string
	Args    map[string]any
	Message string
}

// brain decides the next step from every tool result received so far.
type brain func(got []received) step

// offeredTool is a tool as an agent offered it to the model: its name with
// the agent's prefix taken off when it is one of the MCP server's.
type offeredTool struct {
	Name        string
	Description string
	Schema      map[string]any
}

// functionDecl is a tool as the chat completions, Responses and Gemini
// wires declare it: a name, a description and a JSON schema of its
// parameters.
type functionDecl struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// offered is the tool f declares, its name without the agent's prefix.
func (f functionDecl) offered(prefix string) offeredTool {
	return offeredTool{Name: strings.TrimPrefix(f.Name, prefix), Description: f.Description, Schema: f.Parameters}
}

// hostRequest is one request of an agent to the model, as its wire
// decodes it.
type hostRequest struct {
	Results []received
	Tools   []offeredTool
	// aside answers a request the agent makes for itself (a title, a
	// routing choice), which is not a step of the session.
	aside func(w http.ResponseWriter)
}

// decodePost decodes body, the JSON of a POST to a path ending in suffix,
// into req; any other request is not one of the api's.
func decodePost(r *http.Request, body []byte, suffix, api string, req any) error {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, suffix) {
		return fmt.Errorf("not a %s request", api)
	}
	return json.Unmarshal(body, req)
}

// wire is an agent's protocol to its model.
type wire interface {
	decode(r *http.Request, body []byte) (hostRequest, error)
	// answer writes the model's next step in answer to the n-th request.
	answer(w http.ResponseWriter, next step, n int)
}

// agentModel is the model server. It records every request of the
// session, the step it answered each with, and the bodies as sent.
type agentModel struct {
	t     *testing.T
	wire  wire
	think brain
	URL   string // http://127.0.0.1:PORT

	mu       sync.Mutex // guards the fields below
	requests []hostRequest
	bodies   []string
	sent     []step
}

func startAgentModel(t *testing.T, w wire, think brain) *agentModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &agentModel{t: t, wire: w, think: think, URL: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: m}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m
}

func (m *agentModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req, err := m.wire.decode(r, body)
	if err != nil {
		m.t.Logf("the model server refused %s %s: %v", r.Method, r.URL, err)
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if req.aside != nil {
		req.aside(w)
		return
	}
	next := m.think(req.Results)
	m.mu.Lock()
	m.requests = append(m.requests, req)
	m.bodies = append(m.bodies, string(body))
	m.sent = append(m.sent, next)
	n := len(m.requests)
	m.mu.Unlock()
	if dir := os.Getenv("HASHLINE_AGENT_DUMP"); dir != "" {
		// For a look at what an agent sends its model.
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.json", m.t.Name(), n)), body, 0o644)
	}
	m.wire.answer(w, next, n)
}

// session is what the model was sent and answered, once the agent ran.
func (m *agentModel) session() (reqs []hostRequest, bodies []string, sent []step) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests), slices.Clone(m.bodies), slices.Clone(m.sent)
}

// sse writes one server-sent event: data only when event is "".
func sse(w io.Writer, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
}

// outbound records connections that would leave this machine: an agent is
// pointed at it as its proxy, so anything but the model server goes to
// 127.0.0.1 and no further.
type outbound struct {
	mu    sync.Mutex // guards tried
	tried []string
}

func startOutbound(t *testing.T) (*outbound, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &outbound{}
	go testenv.ServeEach(ln, func(c net.Conn) {
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		o.mu.Lock()
		o.tried = append(o.tried, strings.TrimSpace(line))
		o.mu.Unlock()
		io.WriteString(c, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	})
	t.Cleanup(func() { ln.Close() })
	return o, "http://" + ln.Addr().String()
}

// agentRun is one run of an agent's CLI in a workspace, off the network.
type agentRun struct {
	name string // the agent, for messages
	path string
	args []string
	dir  string
	// env is the agent's own environment, added to what offlineEnv sets.
	env []string
	// bin is hashline-ls, found on PATH as the README's configurations
	// name it.
	bin string
}

// agentOutput is what a run left.
type agentOutput struct {
	stdout, stderr string
	elapsed        time.Duration
}

// offlineEnv is the environment every agent runs in: a private HOME and
// TMPDIR (so no editor's endpoint of this machine is found), hashline-ls
// on PATH, and every proxy variable pointing at the recorder, so that what
// an agent tries beyond the model server stays on 127.0.0.1.
func offlineEnv(t *testing.T, bin, home, tmpdir, proxy string) []string {
	return []string{
		"HOME=" + home, "TMPDIR=" + tmpdir, "LANG=C.UTF-8", "TERM=dumb",
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HTTPS_PROXY=" + proxy, "HTTP_PROXY=" + proxy, "ALL_PROXY=" + proxy,
		"https_proxy=" + proxy, "http_proxy=" + proxy, "all_proxy=" + proxy,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
}

// run runs the agent to its end, failing the test when it fails, and logs
// what it tried to reach beyond the model server.
func (r agentRun) run(t *testing.T, tmpdir string) agentOutput {
	t.Helper()
	proxy, proxyURL := startOutbound(t)
	home := filepath.Join(filepath.Dir(tmpdir), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.path, r.args...)
	cmd.Dir = r.dir
	cmd.Env = append(offlineEnv(t, r.bin, home, tmpdir, proxyURL), r.env...)
	var stdout, stderr strings.Builder
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	out := agentOutput{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", r.name, err, out.stdout, out.stderr)
	}
	t.Logf("%s ran in %v", r.name, out.elapsed.Round(time.Millisecond))
	proxy.mu.Lock()
	if len(proxy.tried) > 0 {
		t.Logf("connections %s tried beyond the model server (kept on 127.0.0.1, refused): %q", r.name, proxy.tried)
	}
	proxy.mu.Unlock()
	return out
}

// agentDirs are a run's workspace (holding files, canonical) and the
// TMPDIR it runs with, side by side in a fresh folder.
func agentDirs(t *testing.T, files map[string]string) (ws, tmpdir string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, tmpdir = filepath.Join(base, "ws"), filepath.Join(base, "tmp")
	for _, d := range []string{ws, tmpdir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	testenv.WriteFiles(t, ws, files)
	return ws, tmpdir
}

// setUpAgent is where each terminal agent's test starts: the agent's CLI
// as npm installed it at cli, the server built, and a workspace holding
// the session's files and config (the agent's configuration, by path in
// the workspace) beside a TMPDIR of its own.
func setUpAgent(t *testing.T, cli string, config map[string]string) (path, bin, ws, tmpdir string) {
	t.Helper()
	path = needNPM(t, cli)
	bin = buildServer(t)
	files := sessionFiles()
	maps.Copy(files, config)
	ws, tmpdir = agentDirs(t, files)
	return path, bin, ws, tmpdir
}

// bigPy is a 300-line Python file with the quotes, backslashes and tabs
// of real code, whose read the bytes the model receives are measured on.
func bigPy() string {
	var b strings.Builder
	b.WriteString("\"\"\"Reports for the agents' tests.\"\"\"\n\nimport re\n\nSEP = \"\\t\"\n\n")
	for i := 1; i <= 49; i++ {
		fmt.Fprintf(&b, "def report_%02d(rows, sep=SEP):\n", i)
		fmt.Fprintf(&b, "    \"\"\"Rows %d as \"name: value\" lines.\"\"\"\n", i)
		b.WriteString("    pattern = re.compile(r\"^\\s*(\\w+)\\s*=\\s*'([^']*)'$\")\n")
		b.WriteString("    out = [f\"{r['name']}: {r['value']!r}\" for r in rows if pattern.match(r[\"raw\"])]\n")
		b.WriteString("\treturn sep.join(out) + \"\\n\"\n\n")
	}
	return b.String()
}

// sessionFiles is the workspace every agent's session starts in.
func sessionFiles() map[string]string {
	return map[string]string{"greet.py": greetPy, "big.py": bigPy()}
}

var (
	// The model finds the tag and the line in what it received, whether
	// the agent passed the text as it is or JSON-escaped it.
	greetTagRe = regexp.MustCompile(`\[greet\.py#([0-9A-F]{4})\]`)
	greetRowRe = regexp.MustCompile(`(?:^|\n|\\n)(\d+):    return f\\*"hello \{name\}\\*"`)
	// A refusal's text starts with its code.
	errorCodeRe = regexp.MustCompile(`^[A-Z][A-Z_]+: `)
)

// Where the session's calls are, by index.
const (
	callReadBig = iota
	callRead
	callEdit
	callStale
	callGrep
	callInvented
	sessionCalls
)

// playSession is the session every agent's model plays: a read of the
// 300-line big.py; a read of greet.py and an edit of its return line with
// only the tag and line number the read showed; the same edit with the
// same tag again, stale by then; a grep; and a read with an argument the
// model invented. Then come the agent's extra calls, if any, and the last
// word. with, when not nil, adds the agent's own arguments to call i.
func playSession(with func(i int, args map[string]any), extra ...step) brain {
	return func(got []received) step {
		var next step
		switch n := len(got); {
		case n == callReadBig:
			next = step{Tool: "hashline_read", Args: map[string]any{"path": "big.py"}}
		case n == callRead:
			next = step{Tool: "hashline_read", Args: map[string]any{"path": "greet.py"}}
		case n == callEdit || n == callStale:
			out := got[callRead].Output
			tag, row := greetTagRe.FindStringSubmatch(out), greetRowRe.FindStringSubmatch(out)
			if tag == nil || row == nil {
				return step{Message: "I could not find the tag and the line in the read's text."}
			}
			word := map[int]string{callEdit: "hi", callStale: "hey"}[n]
			next = step{Tool: "hashline_edit", Args: map[string]any{"path": "greet.py", "tag": tag[1],
				"ops": fmt.Sprintf("PUT %s.=%s:\n+    return f\"%s {name}\"\n", row[1], row[1], word)}}
		case n == callGrep:
			next = step{Tool: "hashline_grep", Args: map[string]any{"pattern": `hi \{name\}`}}
		case n == callInvented:
			next = step{Tool: "hashline_read", Args: map[string]any{"path": "greet.py", "lines": 3}}
		case n < sessionCalls+len(extra):
			next = extra[n-sessionCalls]
			next.Args = cloneArgs(next.Args)
		default:
			return step{Message: lastWord}
		}
		if with != nil {
			with(len(got), next.Args)
		}
		return next
	}
}

// cloneArgs copies args, so that a step's arguments can be added to.
func cloneArgs(args map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		out[k] = v
	}
	return out
}

// referenceTexts replays the tool calls of sent, with their arguments as
// the model sent them, through the MCP Go SDK's client on a fresh copy of
// files, and returns the text of each result: what the agent was given to
// pass on, byte for byte, since a session's texts depend only on its
// calls.
func referenceTexts(t *testing.T, bin string, files map[string]string, sent []step) []string {
	t.Helper()
	ws := writeFiles(t, files)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := connectMCP(ctx, "reference", bin, t.TempDir(), nil, "--no-editor", "--root", ws)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var texts []string
	for _, s := range sent {
		if s.Tool == "" {
			continue
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: s.Tool, Arguments: s.Args})
		if err != nil || len(res.Content) != 1 {
			t.Fatalf("the reference replay of %s %v: %v %+v", s.Tool, s.Args, err, res)
		}
		texts = append(texts, res.Content[0].(*sdk.TextContent).Text)
	}
	return texts
}

// jsonString is s as a JSON string's contents, escaped as JavaScript's
// JSON.stringify does (no HTML escapes).
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	out := strings.TrimSpace(b.String())
	return out[1 : len(out)-1]
}

// sessionRun is one agent's run of playSession, as the checks see it.
type sessionRun struct {
	agent string
	model *agentModel
	bin   string
	ws    string
	// refusalLimit is the most the agent's message for a refused call may
	// be, in bytes, for each byte of the result's text (1.1 unless the
	// agent wraps refusals in a message of its own).
	refusalLimit float64
	// escapesRefusals says the agent hands the model a refusal's text
	// JSON-escaped, inside its own error message.
	escapesRefusals bool
	// checksArguments says the agent refuses an argument the schema does
	// not name before the server sees it.
	checksArguments bool
}

// lastWord is what the model of playSession says once the session is
// done, which an agent ends its output with.
const lastWord = "Done: greet.py now says hi."

// checkLastWord checks that the run named name ended its stdout with the
// model's last word.
func checkLastWord(t *testing.T, name, stdout string) {
	t.Helper()
	if !strings.Contains(stdout, lastWord) {
		t.Errorf("%s did not end with the model's last word:\n%s", name, stdout)
	}
}

// checkSession checks a run of playSession: the five tools reached the
// model with their schemas in the first request, and the guide whole; the
// model received each result's text once, and no more bytes than the
// limits allow; the edit landed byte for byte and the stale one was
// refused with its code and the live tag. It returns what the model
// received, call by call.
func checkSession(t *testing.T, r sessionRun, extra int) []received {
	t.Helper()
	reqs, bodies, sent := r.model.session()
	if len(reqs) == 0 {
		t.Fatalf("%s never asked the model", r.agent)
	}
	checkOffered(t, r.agent, reqs[0].Tools)
	if !holdsGuide(bodies[0]) {
		t.Errorf("the first request %s sent the model (%d bytes) does not hold the guide whole", r.agent, len(bodies[0]))
	}
	got := reqs[len(reqs)-1].Results
	for i, g := range got {
		t.Logf("the model received for call %d (%s):\n%s", i+1, sent[i].Tool, g.Output)
	}
	if want := sessionCalls + extra; len(got) != want || len(reqs) != want+1 {
		t.Fatalf("%s asked the model %d times and passed it %d results, want %d and %d", r.agent, len(reqs), len(got), want+1, want)
	}
	texts := referenceTexts(t, r.bin, sessionFiles(), sent)

	// Each result's text reached the model once, as it is, or for agents
	// that wrap a refusal in a message of their own, escaped once.
	for i, g := range got {
		text := texts[i]
		switch refused := errorCodeRe.MatchString(text); {
		case i == callInvented && r.checksArguments:
			t.Logf("%s refused the invented argument itself: %s", r.agent, g.Output)
		case refused && r.escapesRefusals:
			if n := strings.Count(g.Output, jsonString(text)); n != 1 {
				t.Errorf("call %d: the refusal's text, JSON-escaped, is in what the model received %d times, want once", i+1, n)
			}
		case strings.Count(g.Output, strings.TrimRight(text, "\n")) != 1:
			// An agent may drop the text's last newline.
			t.Errorf("call %d: the result's text is in what the model received %d times, want once; the text:\n%.300s", i+1, strings.Count(g.Output, strings.TrimRight(text, "\n")), text)
		}
	}
	if !strings.HasPrefix(texts[callEdit], "[greet.py#") || !strings.HasPrefix(texts[callStale], "EDIT_TAG_MISMATCH: ") ||
		!strings.Contains(texts[callStale], "live tag: "+greetTagRe.FindStringSubmatch(texts[callEdit])[1]) {
		t.Errorf("the edit and the stale edit answered:\n%s\n%s", texts[callEdit], texts[callStale])
	}
	if !strings.HasPrefix(texts[callInvented], "INVALID_ARGUMENT: argument lines: ") ||
		!r.checksArguments && !strings.Contains(got[callInvented].Output, "INVALID_ARGUMENT: argument lines: ") {
		t.Errorf("a read with an invented argument answered %q; the model received %q", texts[callInvented], got[callInvented].Output)
	}
	want := strings.Replace(greetPy, "hello {name}", "hi {name}", 1)
	if b, _ := os.ReadFile(filepath.Join(r.ws, "greet.py")); string(b) != want {
		t.Errorf("greet.py holds %q, want %q", b, want)
	}

	// The bytes the model received for each byte of the text.
	read := float64(len(got[callReadBig].Output)) / float64(len(texts[callReadBig]))
	refusal := float64(len(got[callStale].Output)) / float64(len(texts[callStale]))
	t.Logf("bytes the model receives ÷ bytes of text, %s: read of a 300-line file %d/%d = %.2f; refused edit %d/%d = %.2f",
		r.agent, len(got[callReadBig].Output), len(texts[callReadBig]), read, len(got[callStale].Output), len(texts[callStale]), refusal)
	if read > 1.1 {
		t.Errorf("%s gave the model %.2f bytes for each byte of a read's text, want at most 1.1", r.agent, read)
	}
	if limit := max(r.refusalLimit, 1.1); refusal > limit {
		t.Errorf("%s gave the model %.2f bytes for each byte of a refusal's text, want at most %.1f", r.agent, refusal, limit)
	}
	return got
}

// checkOffered checks that the five tools were offered with describe's
// schemas: every property, and the required ones. An agent may drop
// keywords of a property (Codex drops pattern and minimum) or add
// properties of its own (Gemini CLI adds wait_for_previous).
func checkOffered(t *testing.T, agent string, offered []offeredTool) {
	t.Helper()
	byName := map[string]offeredTool{}
	var names []string
	for _, o := range offered {
		byName[o.Name] = o
		names = append(names, o.Name)
	}
	for _, tool := range commands.Tools() {
		o, ok := byName[tool.Name]
		if !ok {
			t.Errorf("%s's first request to the model does not offer %s; it offers %v", agent, tool.Name, names)
			continue
		}
		if !strings.Contains(o.Description, tool.Description) {
			t.Errorf("%s offers %s with a description that is not describe's whole (%d bytes, describe's %d)", agent, tool.Name, len(o.Description), len(tool.Description))
		}
		props, _ := o.Schema["properties"].(map[string]any)
		for name := range tool.InputSchema["properties"].(map[string]any) {
			if _, ok := props[name]; !ok {
				t.Errorf("%s offers %s without its argument %s: %v", agent, tool.Name, name, o.Schema)
			}
		}
		var required []string
		if req, ok := o.Schema["required"].([]any); ok {
			for _, r := range req {
				required = append(required, fmt.Sprint(r))
			}
		}
		want, _ := tool.InputSchema["required"].([]string)
		slices.Sort(required)
		want = slices.Sorted(slices.Values(want))
		if !slices.Equal(required, want) {
			t.Errorf("%s offers %s requiring %v, want %v", agent, tool.Name, required, want)
		}
	}
}

// holdsGuide reports whether one string of a request's JSON holds the
// MCP instructions whole, in order, whatever an agent did to their
// indentation.
func holdsGuide(body string) bool {
	guide := normalizedLines(commands.Guidance())
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		return false
	}
	found := false
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			found = found || strings.Contains(normalizedLines(v), guide)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return found
}

// normalizedLines is s with each line's leading and trailing blanks and
// its empty lines dropped.
func normalizedLines(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// readmeBlock is the first fenced block of lang in the README's section
// titled heading (### heading), so that each agent is configured exactly
// as the README says.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n### "+heading+"\n")
	if !ok {
		t.Fatalf("the README has no section ### %s", heading)
	}
	if end := strings.Index(section, "\n#"); end >= 0 {
		section = section[:end]
	}
	_, block, ok := strings.Cut(section, "\n```"+lang+"\n")
	if !ok {
		t.Fatalf("the README's section %s has no %s block", heading, lang)
	}
	block, _, _ = strings.Cut(block, "\n```")
	// The README's rule for a binary of one's own on PATH, which the tests
	// run: the command is hashline-ls mcp instead of npx -y hashline-ls mcp
	// (the npx test runs that form against a registry on loopback).
	block = strings.NewReplacer(
		`"command": "npx", "args": ["-y", "hashline-ls", "mcp"`, `"command": "hashline-ls", "args": ["mcp"`,
		`["npx", "-y", "hashline-ls", "mcp"`, `["hashline-ls", "mcp"`,
	).Replace(block)
	if strings.Contains(block, "npx") {
		t.Fatalf("the README's section %s names npx in a form the tests do not know:\n%s", heading, block)
	}
	return block + "\n"
}

// connectMCP starts bin mcp with args, as a terminal agent does, with only
// PATH and TMPDIR=tmpdir for its environment and its stderr into stderr,
// and connects the MCP Go SDK's client, named name, to it within ctx.
func connectMCP(ctx context.Context, name, bin, tmpdir string, stderr io.Writer, args ...string) (*sdk.ClientSession, error) {
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmpdir, "GOTRACEBACK=all"}
	cmd.Stderr = stderr
	t := &startedCommand{CommandTransport: sdk.CommandTransport{Command: cmd}, started: make(chan *os.Process, 1)}
	stop := quitBefore(ctx, t.started)
	defer stop()
	return sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil).Connect(ctx, t, nil)
}

// startedCommand is a CommandTransport that hands on its process once it
// runs.
type startedCommand struct {
	sdk.CommandTransport
	started chan *os.Process
}

func (t *startedCommand) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.CommandTransport.Connect(ctx)
	if err == nil {
		t.started <- t.Command.Process
	}
	return c, err
}

// quitBefore has the server print every goroutine on its stderr (SIGQUIT)
// when the handshake is not done a few seconds before ctx ends: the client
// would otherwise close its stdin, and the server leave as if all were well,
// so a hang would not say where it hangs. stop disarms it.
func quitBefore(ctx context.Context, started <-chan *os.Process) (stop func()) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		var p *os.Process
		select {
		case p = <-started:
		case <-done:
			return
		}
		select {
		case <-done:
		case <-time.After(time.Until(deadline) - 3*time.Second):
			p.Signal(syscall.SIGQUIT)
		}
	}()
	return func() { close(done) }
}

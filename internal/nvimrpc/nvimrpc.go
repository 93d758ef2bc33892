// Package nvimrpc drives a running Neovim over its msgpack-RPC socket
// (nvim --listen) the way a person at the keyboard would: keys go in with
// nvim_input, as typed, and the buffer is read back with the API. It exists
// for the tests that type into a real editor while an edit lands.
//
// Only requests go out; Neovim's notifications are dropped, and a request
// from Neovim is answered with an error, since nothing here serves any.
package nvimrpc

import (
	"errors"
	"fmt"
	"net"
	"reflect"
	"sync"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// Client is one connection to a Neovim. It is safe for concurrent use.
type Client struct {
	conn net.Conn

	wmu sync.Mutex // guards enc and the write of one message
	enc *msgpack.Encoder

	mu      sync.Mutex // guards the fields below
	next    uint32
	waiting map[uint32]chan reply
	err     error // why the connection ended, once it has
}

type reply struct {
	err    any
	result any
}

// Dial connects to the socket nvim --listen serves, waiting up to wait for
// it to appear.
func Dial(socket string, wait time.Duration) (*Client, error) {
	deadline := time.Now().Add(wait)
	for {
		conn, err := net.Dial("unix", socket)
		if err == nil {
			c := &Client{conn: conn, enc: msgpack.NewEncoder(conn), waiting: map[uint32]chan reply{}}
			go c.read()
			return c, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("nvimrpc: %s: %w", socket, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Close ends the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Call sends a request and waits for its answer. An error Neovim answers
// with is returned as an *Error.
func (c *Client) Call(method string, args ...any) (any, error) {
	if args == nil {
		args = []any{}
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.next++
	id := c.next
	c.waiting[id] = ch
	c.mu.Unlock()
	c.wmu.Lock()
	err := c.enc.Encode([]any{0, id, method, args})
	c.wmu.Unlock()
	if err != nil {
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
		return nil, fmt.Errorf("nvimrpc: %s: %w", method, err)
	}
	r, ok := <-ch
	if !ok {
		return nil, c.closed()
	}
	if r.err != nil {
		return nil, &Error{Method: method, Value: r.err}
	}
	return r.result, nil
}

// Error is an error Neovim answered a request with.
type Error struct {
	Method string
	Value  any // [type, message] as Neovim sends it
}

func (e *Error) Error() string {
	if v, ok := e.Value.([]any); ok && len(v) == 2 {
		return fmt.Sprintf("nvimrpc: %s: %v", e.Method, v[1])
	}
	return fmt.Sprintf("nvimrpc: %s: %v", e.Method, e.Value)
}

// Input queues keys as if typed (nvim_input): it returns before Neovim has
// acted on them.
func (c *Client) Input(keys string) error {
	_, err := c.Call("nvim_input", keys)
	return err
}

// Type queues keys and waits until Neovim has processed them: a blocking
// request after nvim_input is answered once the typeahead is consumed.
func (c *Client) Type(keys string) error {
	if err := c.Input(keys); err != nil {
		return err
	}
	_, err := c.Call("nvim_eval", "1")
	return err
}

// Command runs an Ex command.
func (c *Client) Command(cmd string) error {
	_, err := c.Call("nvim_command", cmd)
	return err
}

// Lua runs code as a Lua chunk with args as ..., and returns what it
// returns.
func (c *Client) Lua(code string, args ...any) (any, error) {
	if args == nil {
		args = []any{}
	}
	return c.Call("nvim_exec_lua", code, args)
}

// Int converts an integer Neovim sent, whatever width msgpack gave it.
func Int(v any) (int64, bool) {
	switch n := reflect.ValueOf(v); n.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return n.Int(), true
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(n.Uint()), true
	case reflect.Float64:
		return int64(n.Float()), n.Float() == float64(int64(n.Float()))
	}
	return 0, false
}

func (c *Client) read() {
	dec := msgpack.NewDecoder(c.conn)
	var err error
	for {
		var msg []any
		if msg, err = decodeMessage(dec); err != nil {
			break
		}
		kind, _ := Int(msg[0])
		switch {
		case kind == 1 && len(msg) == 4:
			id, _ := Int(msg[1])
			c.mu.Lock()
			ch := c.waiting[uint32(id)]
			delete(c.waiting, uint32(id))
			c.mu.Unlock()
			if ch != nil {
				ch <- reply{err: msg[2], result: msg[3]}
			}
		case kind == 0 && len(msg) == 4:
			c.wmu.Lock()
			_ = c.enc.Encode([]any{1, msg[1], []any{0, "nvimrpc serves no requests"}, nil})
			c.wmu.Unlock()
		}
	}
	c.mu.Lock()
	c.err = fmt.Errorf("nvimrpc: the connection ended: %w", err)
	for id, ch := range c.waiting {
		close(ch)
		delete(c.waiting, id)
	}
	c.mu.Unlock()
}

func (c *Client) closed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		return errors.New("nvimrpc: the connection ended")
	}
	return c.err
}

// decodeMessage reads one message; Neovim's handles (buffers, windows)
// come as ext types, which are decoded as their raw bytes.
func decodeMessage(dec *msgpack.Decoder) ([]any, error) {
	v, err := dec.DecodeInterface()
	if err != nil {
		return nil, err
	}
	msg, ok := v.([]any)
	if !ok || len(msg) < 3 {
		return nil, fmt.Errorf("nvimrpc: not a message: %v", v)
	}
	return msg, nil
}

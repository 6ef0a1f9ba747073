package tsplib

import (
	"bufio"
	"errors"
	"io"
)

// Limits keeping the reader linear in time and bounded in memory on hostile input.
const (
	// MaxLineLength bounds a header line (KEY : value).
	MaxLineLength = 1 << 20
	// MaxTokenLength bounds one data token (a node id, a coordinate, a weight).
	MaxTokenLength = 256
)

// token is one whitespace-separated word of the input, or a lone ':'.
type token struct {
	text string
	line int
	eof  bool
}

// lexer splits a TSPLIB file into tokens with line numbers, linear and bounded.
type lexer struct {
	r    *bufio.Reader
	file string
	line int // line of the next unread byte
	// lastText is the last non-blank byte's line, where the end is reported.
	lastText int
	buf      []byte

	peeked bool
	tok    token
	err    error // sticky read error
}

func newLexer(r io.Reader, file string) *lexer {
	br := bufio.NewReaderSize(&crReader{r: r}, 64<<10)
	lx := &lexer{r: br, file: file, line: 1}
	// A UTF-8 byte order mark is not part of the data.
	if b, err := br.Peek(3); err == nil && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		br.Discard(3)
	}
	return lx
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// chunk returns the buffered bytes not yet consumed, nil at the end or on error (lx.err); callers Discard what they use.
func (lx *lexer) chunk() []byte {
	if lx.err != nil {
		return nil
	}
	n := lx.r.Buffered()
	if n == 0 {
		if _, err := lx.r.Peek(1); err != nil {
			if !errors.Is(err, io.EOF) {
				lx.err = err
			}
			return nil
		}
		n = lx.r.Buffered()
	}
	b, _ := lx.r.Peek(n)
	return b
}

// skip skips whitespace, counting newlines (inLine: blanks to the line's end), and returns the next byte.
func (lx *lexer) skip(inLine bool) (byte, bool) {
	for {
		b := lx.chunk()
		if b == nil {
			return 0, false
		}
		i := 0
		for ; i < len(b) && isSpace(b[i]); i++ {
			if b[i] == '\n' {
				if inLine {
					break
				}
				lx.line++
			}
		}
		lx.r.Discard(i)
		if i < len(b) {
			return b[i], true
		}
	}
}

// eofLine is the line to report a problem found at the end of the file.
func (lx *lexer) eofLine() int {
	return max(lx.lastText, 1)
}

// next returns the next token; words end at whitespace or ':', itself a token.
func (lx *lexer) next() (token, error) {
	if lx.peeked {
		lx.peeked = false
		return lx.tok, nil
	}
	line, eof, err := lx.scan()
	if err != nil || eof {
		return token{line: line, eof: eof}, err
	}
	return token{text: string(lx.buf), line: line}, nil
}

// nextRaw is next without allocating: the word lives until the next call.
func (lx *lexer) nextRaw() (word []byte, line int, eof bool, err error) {
	if lx.peeked {
		lx.peeked = false
		return []byte(lx.tok.text), lx.tok.line, lx.tok.eof, nil
	}
	line, eof, err = lx.scan()
	return lx.buf, line, eof, err
}

// scan reads the next word into lx.buf and returns its line, or eof.
func (lx *lexer) scan() (line int, eof bool, err error) {
	lx.skip(false)
	line = lx.line
	lx.buf = lx.buf[:0]
scan:
	for {
		b := lx.chunk()
		if b == nil {
			break
		}
		i := 0
		for i < len(b) {
			c := b[i]
			if isSpace(c) {
				lx.buf = append(lx.buf, b[:i]...)
				lx.r.Discard(i)
				break scan
			}
			if c == ':' {
				if len(lx.buf) == 0 && i == 0 {
					i = 1 // a lone ':'
				}
				lx.buf = append(lx.buf, b[:i]...)
				lx.r.Discard(i)
				break scan
			}
			if len(lx.buf)+i >= MaxTokenLength {
				lx.buf = append(lx.buf, b[:i]...)
				return line, false, Errorf(lx.file, line, "token too long (more than %d bytes): %s", MaxTokenLength, Quote(string(lx.buf)))
			}
			i++
		}
		lx.buf = append(lx.buf, b...)
		lx.r.Discard(len(b))
	}
	if lx.err != nil {
		return line, false, Errorf(lx.file, line, "read error: %v", BareError(lx.err))
	}
	if len(lx.buf) == 0 {
		return lx.eofLine(), true, nil
	}
	lx.lastText = line
	return line, false, nil
}

// lineDone skips blanks to the line's end, reporting whether nothing else is on it.
func (lx *lexer) lineDone() bool {
	c, ok := lx.skip(true)
	return !ok || c == '\n'
}

// peek returns the next token without consuming it.
func (lx *lexer) peek() (token, error) {
	if lx.peeked {
		return lx.tok, nil
	}
	t, err := lx.next()
	if err != nil {
		return t, err
	}
	lx.tok, lx.peeked = t, true
	return t, nil
}

// restOfLine returns and consumes the rest of the current line.
func (lx *lexer) restOfLine() (string, error) {
	line := lx.line
	lx.buf = lx.buf[:0]
scan:
	for {
		b := lx.chunk()
		if b == nil {
			break
		}
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		if len(lx.buf)+i > MaxLineLength {
			return "", Errorf(lx.file, line, "line too long (more than %d bytes)", MaxLineLength)
		}
		lx.buf = append(lx.buf, b[:i]...)
		if i < len(b) {
			lx.r.Discard(i + 1)
			lx.line++
			break scan
		}
		lx.r.Discard(i)
	}
	if lx.err != nil {
		return "", Errorf(lx.file, line, "read error: %v", BareError(lx.err))
	}
	for _, c := range lx.buf {
		if !isSpace(c) {
			lx.lastText = line
			break
		}
	}
	return string(lx.buf), nil
}

// skipColon consumes a ':' that is the line's next non-blank byte.
func (lx *lexer) skipColon() {
	if c, ok := lx.skip(true); ok && c == ':' {
		lx.r.Discard(1)
	}
}

// LineEnds returns r with each lone '\r' as '\n', so all line ends count alike.
func LineEnds(r io.Reader) io.Reader { return &crReader{r: r} }

// crReader turns a lone '\r' into '\n'.
type crReader struct {
	r       io.Reader
	pending bool // a '\r' held back from the previous read
}

func (c *crReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	off := 0
	if c.pending {
		off = 1
	}
	n, err := c.r.Read(p[off:])
	total := off + n
	if c.pending {
		switch {
		case n > 0 && p[1] == '\n':
			p[0], c.pending = '\r', false
		case n > 0 || err != nil:
			p[0], c.pending = '\n', false
		default:
			return 0, nil // no byte yet to decide on
		}
	}
	for i := off; i < total; i++ {
		if p[i] != '\r' {
			continue
		}
		switch {
		case i+1 < total:
			if p[i+1] != '\n' {
				p[i] = '\n'
			}
		case err != nil:
			p[i] = '\n'
		default:
			total--
			c.pending = true
		}
	}
	return total, err
}

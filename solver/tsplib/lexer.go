package tsplib

import (
	"bufio"
	"errors"
	"io"
)

// Limits that keep the reader linear in time and bounded in memory on
// hostile input.
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

// lexer splits a TSPLIB file into tokens while tracking line numbers. It
// reads a byte at a time from a buffered reader, so a line of any length
// costs linear time and at most MaxTokenLength or MaxLineLength bytes of
// memory.
type lexer struct {
	r    *bufio.Reader
	file string
	line int // line of the next unread byte
	// lastText is the line of the last non-blank byte read: where the
	// end of the file is reported.
	lastText int
	buf      []byte

	peeked bool
	tok    token
	err    error // sticky read error
}

func newLexer(r io.Reader, file string) *lexer {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
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

func (lx *lexer) readByte() (byte, bool) {
	if lx.err != nil {
		return 0, false
	}
	c, err := lx.r.ReadByte()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			lx.err = err
		}
		return 0, false
	}
	return c, true
}

func (lx *lexer) unreadByte() { lx.r.UnreadByte() }

// skipSpace skips whitespace, counting newlines.
func (lx *lexer) skipSpace() {
	for {
		c, ok := lx.readByte()
		if !ok {
			return
		}
		if c == '\n' {
			lx.line++
			continue
		}
		if !isSpace(c) {
			lx.unreadByte()
			return
		}
	}
}

// eofLine is the line to report a problem found at the end of the file.
func (lx *lexer) eofLine() int {
	return max(lx.lastText, 1)
}

// next returns the next token. Words end at whitespace or ':'; a ':' is a
// token of its own.
func (lx *lexer) next() (token, error) {
	if lx.peeked {
		lx.peeked = false
		return lx.tok, nil
	}
	lx.skipSpace()
	line := lx.line
	lx.buf = lx.buf[:0]
	for {
		c, ok := lx.readByte()
		if !ok {
			break
		}
		if isSpace(c) {
			lx.unreadByte()
			break
		}
		if c == ':' {
			if len(lx.buf) == 0 {
				lx.buf = append(lx.buf, c)
			} else {
				lx.unreadByte()
			}
			break
		}
		if len(lx.buf) >= MaxTokenLength {
			return token{}, errorf(lx.file, line, "token too long (more than %d bytes): %s", MaxTokenLength, quote(string(lx.buf)))
		}
		lx.buf = append(lx.buf, c)
	}
	if lx.err != nil {
		return token{}, errorf(lx.file, line, "read error: %v", lx.err)
	}
	if len(lx.buf) == 0 {
		return token{line: lx.eofLine(), eof: true}, nil
	}
	lx.lastText = line
	return token{text: string(lx.buf), line: line}, nil
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

// restOfLine returns the rest of the current line (without the newline),
// consuming it. It must not be called with a token peeked.
func (lx *lexer) restOfLine() (string, error) {
	line := lx.line
	lx.buf = lx.buf[:0]
	for {
		c, ok := lx.readByte()
		if !ok {
			break
		}
		if c == '\n' {
			lx.line++
			break
		}
		if len(lx.buf) >= MaxLineLength {
			return "", errorf(lx.file, line, "line too long (more than %d bytes)", MaxLineLength)
		}
		if !isSpace(c) {
			lx.lastText = line
		}
		lx.buf = append(lx.buf, c)
	}
	if lx.err != nil {
		return "", errorf(lx.file, line, "read error: %v", lx.err)
	}
	return string(lx.buf), nil
}

// skipColon consumes a ':' if it is the next non-blank byte on the current line.
func (lx *lexer) skipColon() {
	for {
		c, ok := lx.readByte()
		if !ok {
			return
		}
		if c == ':' {
			return
		}
		if c == '\n' || !isSpace(c) {
			lx.unreadByte()
			return
		}
	}
}

package pyjson

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// textEncoding is an encoding json.loads detects in bytes input.
type textEncoding struct {
	name  string // the codec Python names in its errors
	width int    // bytes per code unit: 1 (UTF-8), 2 or 4
	big   bool   // big-endian units
	skip  int    // byte-order mark to drop
}

var (
	encUTF8    = textEncoding{name: "utf-8", width: 1}
	encUTF8Sig = textEncoding{name: "utf-8-sig", width: 1, skip: 3}
)

// detectEncoding picks the encoding json.loads reads bytes in: a UTF-32,
// UTF-16 or UTF-8 byte-order mark (checked in that order), else the
// pattern of zero bytes in the first four (two for a two-byte input)
// that ASCII JSON text leaves in UTF-16 and UTF-32, else UTF-8. Valid
// UTF-8 JSON has no zero byte, so only input UTF-8 refuses is read
// otherwise.
func detectEncoding(b []byte) textEncoding {
	has := func(p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }
	switch {
	case has("\x00\x00\xfe\xff"):
		return textEncoding{name: "utf-32-be", width: 4, big: true, skip: 4}
	case has("\xff\xfe\x00\x00"):
		return textEncoding{name: "utf-32-le", width: 4, skip: 4}
	case has("\xfe\xff"):
		return textEncoding{name: "utf-16-be", width: 2, big: true, skip: 2}
	case has("\xff\xfe"):
		return textEncoding{name: "utf-16-le", width: 2, skip: 2}
	case has("\xef\xbb\xbf"):
		return encUTF8Sig
	}
	switch {
	case len(b) >= 4 && b[0] == 0 && b[1] != 0:
		return textEncoding{name: "utf-16-be", width: 2, big: true}
	case len(b) >= 4 && b[0] == 0:
		return textEncoding{name: "utf-32-be", width: 4, big: true}
	case len(b) >= 4 && b[1] == 0 && (b[2] != 0 || b[3] != 0):
		return textEncoding{name: "utf-16-le", width: 2}
	case len(b) >= 4 && b[1] == 0:
		return textEncoding{name: "utf-32-le", width: 4}
	case len(b) == 2 && b[0] == 0:
		return textEncoding{name: "utf-16-be", width: 2, big: true}
	case len(b) == 2 && b[1] == 0:
		return textEncoding{name: "utf-16-le", width: 2}
	}
	return encUTF8
}

// DecodeError means bytes input was not valid in the encoding json.loads
// detected for it (Python raises UnicodeDecodeError, a ValueError).
type DecodeError struct {
	Encoding string // the codec Python names: "utf-16-le", "utf-32-be", …
	Offset   int    // byte offset of the offending unit in the input
	Reason   string // Python's reason: "truncated data", …
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("pyjson: %s text invalid at byte %d: %s (Python: UnicodeDecodeError)", e.Encoding, e.Offset, e.Reason)
}

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *DecodeError) Unwrap() error { return ErrSyntax }

// toWTF8 converts UTF-16 or UTF-32 text (after its byte-order mark) to
// UTF-8, as Python decodes it with errors="surrogatepass": a valid
// surrogate pair becomes its code point, a lone surrogate the WTF-8 bytes
// of its code point.
func toWTF8(b []byte, enc textEncoding) ([]byte, error) {
	out := make([]byte, 0, len(b))
	unit := func(i int) rune {
		if enc.width == 2 {
			if enc.big {
				return rune(binary.BigEndian.Uint16(b[i:]))
			}
			return rune(binary.LittleEndian.Uint16(b[i:]))
		}
		if enc.big {
			return rune(binary.BigEndian.Uint32(b[i:]))
		}
		return rune(binary.LittleEndian.Uint32(b[i:]))
	}
	for i := enc.skip; i < len(b); i += enc.width {
		if len(b)-i < enc.width {
			return nil, &DecodeError{Encoding: enc.name, Offset: i, Reason: "truncated data"}
		}
		r := unit(i)
		switch {
		case uint32(r) > utf8.MaxRune:
			return nil, &DecodeError{Encoding: enc.name, Offset: i, Reason: "code point not in range(0x110000)"}
		case enc.width == 2 && r >= 0xd800 && r <= 0xdbff && len(b)-i >= 4:
			if lo := unit(i + 2); lo >= 0xdc00 && lo <= 0xdfff {
				out = utf8.AppendRune(out, 0x10000+(r-0xd800)<<10+(lo-0xdc00))
				i += 2
				continue
			}
		}
		if r >= 0xd800 && r <= 0xdfff {
			out = AppendSurrogate(out, r)
		} else {
			out = utf8.AppendRune(out, r)
		}
	}
	return out, nil
}

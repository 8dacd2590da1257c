package main

import (
	"os"

	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/locale"
	"github.com/pbednarcik/flexreaddir/cmd/fdu/internal/message"
)

// localeCharset is the character set of the locale du would run in, as
// quoting needs it. A multibyte set other than UTF-8 (EUC-JP, GB18030)
// is read as C: fdu has none of their decoders.
func localeCharset() message.Charset {
	ct := locale.FromEnv(os.LookupEnv)
	switch {
	case ct.UTF8():
		return message.Charset{UTF8: true, Print: ct.IsWPrint}
	case ct.Unibyte():
		return message.Charset{PrintByte: ct.IsPrint}
	}
	return message.Charset{}
}

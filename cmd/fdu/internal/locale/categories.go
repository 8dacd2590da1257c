package locale

// category is one of glibc's twelve locale categories.
type category struct {
	num     int    // its number in glibc's <locale.h>, its slot in an archive record
	env     string // its variable, and its file's name
	items   int    // the items its data holds in glibc 2.36 (_NL_NUM_LC_... in <langinfo.h>)
	codeset int    // the index of its item naming the character set
}

// categories are glibc's on Linux. A file with fewer items than glibc
// 2.36's is rejected, as glibc rejects it; more are accepted, as a later
// glibc's files add items at the end.
var categories = []category{
	{0, "LC_CTYPE", 86, 14},
	{1, "LC_NUMERIC", 6, 5},
	{2, "LC_TIME", 159, 110},
	{3, "LC_COLLATE", 19, 18},
	{4, "LC_MONETARY", 46, 45},
	{5, "LC_MESSAGES", 5, 4},
	{7, "LC_PAPER", 3, 2},
	{8, "LC_NAME", 7, 6},
	{9, "LC_ADDRESS", 13, 12},
	{10, "LC_TELEPHONE", 5, 4},
	{11, "LC_MEASUREMENT", 2, 1},
	{12, "LC_IDENTIFICATION", 16, 15},
}

// ctype is LC_CTYPE's entry in categories.
var ctype = categories[0]

// lcLast is glibc's __LC_LAST: the slots of an archive record, LC_ALL's
// (6) unused.
const lcLast = 13

// magic is the first word of a category's data (LIMAGIC in
// locale/localeinfo.h).
func (c category) magic() uint32 {
	switch c.num {
	case 3:
		return 0x20051014 ^ 3
	case 0:
		return 0x20090720
	}
	return 0x20031115 ^ uint32(c.num)
}

# locales.sh: sourced by the scripts that run GNU du and fdu in several
# locales, to know whether du runs in one, and to generate it if not.

# du_runs_in LOCALE: whether du loads LOCALE, a UTF-8 one: quote() then
# writes ‘ ’.
du_runs_in() { [[ $(LC_ALL=$1 du --max-depth=x 2>&1) == *‘x’* ]]; }

# have_locale LOCALE: whether du runs in LOCALE (C always), after
# generating it with locale-gen if it is missing and we are root:
# Debian's locales package, LOCALE's line uncommented (or added) in
# /etc/locale.gen, and --keep-existing so that the locales generated
# before stay. A name glibc has no sources for is not added.
have_locale() {
	local l=$1 line="$1 ${1#*.}"
	[ "$l" = C ] || du_runs_in "$l" && return 0
	[ "$(id -u)" = 0 ] || return 1
	if ! command -v locale-gen >/dev/null; then
		{ apt-get install -y -qq locales || { apt-get update -qq && apt-get install -y -qq locales; }; } >/dev/null 2>&1 || return 1
	fi
	[ -e "/usr/share/i18n/locales/${l%%.*}" ] && [ -e "/usr/share/i18n/charmaps/${l#*.}.gz" ] || return 1
	grep -qx "$line" /etc/locale.gen 2>/dev/null || sed -i "s/^# *$line\$/$line/" /etc/locale.gen 2>/dev/null
	grep -qx "$line" /etc/locale.gen 2>/dev/null || echo "$line" >>/etc/locale.gen
	locale-gen --keep-existing >/dev/null 2>&1
	du_runs_in "$l"
}

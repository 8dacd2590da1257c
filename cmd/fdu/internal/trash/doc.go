// Package trash moves files to the trash as the freedesktop.org Trash
// specification (1.0) has it, so that a desktop's trash, trash-cli's
// trash-list and trash-restore see them and put them back: the home trash
// ($XDG_DATA_HOME/Trash, by default ~/.local/share/Trash) for what is on
// its file system, and for what is on another file system the trash at
// the top of that one, $topdir/.Trash/$uid (under an administrator's
// sticky .Trash) or $topdir/.Trash-$uid. An entry is renamed there,
// relative to its directory's descriptor, and never copied: where no
// trash is on its file system it is refused.
package trash

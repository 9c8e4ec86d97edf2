# scenarios/lib/files.sh - replacing a file without trusting what is already there: a temporary file
# with an unpredictable name beside the file it replaces. (A run's folder, new or empty and ours, is
# allocspike-run's: sc_outdir.) Sourced; no globals.

# files_tmp_beside FILE : prints a new empty file in FILE's folder, named .FILE.XXXXXX (mktemp: an
# unpredictable name, created exclusively), with the mode a new file gets under the umask, so that
# renaming it over FILE changes nothing but the content.
files_tmp_beside() {
	local tmp
	tmp=$(mktemp "$(dirname -- "$1")/.${1##*/}.XXXXXX") || return 1
	chmod "$(printf '%o' $((0666 & ~8#$(umask))))" "$tmp" || {
		rm -f "$tmp"
		return 1
	}
	echo "$tmp"
}

# files_replace FILE COMMAND... : COMMAND's standard output replaces FILE whole (a temporary file
# beside it renamed over it), so a reader never sees half a file; FILE is left as it was, and the
# temporary file removed, when COMMAND fails.
files_replace() {
	local file=$1 tmp st=0
	shift
	tmp=$(files_tmp_beside "$file") || return 1
	"$@" >"$tmp" || st=$?
	if ((st == 0)); then
		# -T: a link to a folder at FILE is replaced, never moved into
		mv -fT -- "$tmp" "$file" || st=$?
	fi
	((st == 0)) || rm -f -- "$tmp"
	return "$st"
}

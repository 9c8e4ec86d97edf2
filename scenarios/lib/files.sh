# scenarios/lib/files.sh - writing files and folders without trusting what is already there: a run
# folder (--out) only new or empty and ours, files created only where nothing is (no link followed),
# and temporary files with unpredictable names beside the file they replace. Sourced; no globals.

# files_outdir_problem DIR : why DIR cannot be a folder a run writes into (nothing printed, status 0,
# when it can): a control character in its name, a symbolic link, not a folder, not owned by this
# user, or not empty. A new or empty folder of ours is the only kind accepted (docs/cli.md, "--out").
files_outdir_problem() {
	local dir=$1
	if [[ $dir == *[[:cntrl:]]* ]]; then
		echo "the path $(printf '%q' "$dir") holds a control character (a newline, a tab, ...); choose a plain one"
		return 1
	fi
	dir=$(files_path_trim "$dir")
	if [[ -L $dir ]]; then
		echo "$dir is a symbolic link; give the folder itself"
	elif [[ ! -e $dir ]]; then
		return 0
	elif [[ ! -d $dir ]]; then
		echo "$dir exists and is not a folder"
	elif [[ ! -O $dir ]]; then
		echo "$dir is not owned by you (uid $(id -u)); a run writes only into a folder of yours"
	elif [[ ! -r $dir || ! -x $dir ]]; then
		echo "$dir cannot be listed, so it cannot be shown to be empty"
	elif [[ -n $(ls -A -- "$dir") ]]; then
		echo "$dir exists and is not empty; a run writes only into a new or empty folder"
	else
		return 0
	fi
	return 1
}

# files_outdir_make DIR : makes DIR the run's folder: created (its parents as needed) when it does
# not exist, taken when it is an empty folder of ours; prints why not and fails otherwise.
files_outdir_make() {
	local dir problem
	problem=$(files_outdir_problem "$1") || {
		echo "$problem"
		return 1
	}
	dir=$(files_path_trim "$1")
	[[ -e $dir ]] && return 0
	mkdir -p -- "$(dirname -- "$dir")" 2>/dev/null || {
		echo "cannot create the folder $(dirname -- "$dir")"
		return 1
	}
	# Not -p: a folder (or link) that appeared since the check is not taken.
	mkdir -- "$dir" 2>/dev/null || {
		echo "cannot create $dir (it exists now, or its parent is not writable)"
		return 1
	}
}

# files_path_trim PATH : PATH without trailing slashes ("/" stays), so that a link is seen as one.
files_path_trim() {
	local p=$1
	while [[ $p == */ && $p != / ]]; do p=${p%/}; done
	echo "$p"
}

# files_new FILE : creates FILE empty; fails when anything, a link included, is there already.
files_new() {
	[[ ! -e $1 && ! -L $1 ]] && (set -o noclobber && : >"$1")
}

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

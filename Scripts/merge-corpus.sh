#!/usr/bin/env bash
# The text merge's corpus of real merges: file triples (ancestor, ours, theirs) from two-parent merge commits of public
# repositories, where both parents changed a text file. Only the manifest is committed (Tests/MergeCorpus/manifest.tsv:
# repository, merge commit, merge base, both parents, path); the files are read from local clones when the corpus runs.
#
#   Scripts/merge-corpus.sh build OWNER/NAME GIT_DIR [MAX]   add up to MAX (default 700) triples of one repository
#   Scripts/merge-corpus.sh clone DIR                        clone every repository the manifest names into DIR
#                                                            (DIR/OWNER+NAME.git; needs the network)
#   Scripts/merge-corpus.sh run DIR                          the corpus contract against git merge-file, in a release
#                                                            build (the deep sweep runs it when RECONCILE_MERGE_CORPUS
#                                                            names DIR)
#
# DIR holds one bare clone per repository, as OWNER+NAME.git or OWNER+NAME/repo. The contract: wherever git merges a
# triple cleanly, the line merge is clean and byte-identical to git's; never an overlap where git is clean.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=Tests/MergeCorpus/manifest.tsv
# Text files, by extension: C and headers, shell, Markdown, plain text, build files, manual pages.
text_files='\.(c|h|sh|md|txt|am|ac|in|mk|y|l|1|tcl|lua|conf|yml|yaml|json|py|rb)$|(^|/)(README|NEWS|CHANGES|TODO|Makefile)[^/]*$'

case "${1:-}" in
  build)
    repo=${2:?owner/name}; git_dir=${3:?the git directory of the repository}; max=${4:-700}
    [ -f "$manifest" ] || printf 'repository\tmerge\tbase\tours\ttheirs\tpath\n' > "$manifest"
    count=0
    declare -A seen=()
    while read -r merge ours theirs; do
      [ -n "$theirs" ] || continue
      base=$(git --git-dir="$git_dir" merge-base "$ours" "$theirs" 2>/dev/null | head -n 1) || continue
      [ -n "$base" ] || continue
      # Files both parents modified (not added, deleted or renamed), text only (numstat says - for binary).
      both=$(comm -12 \
        <(git --git-dir="$git_dir" diff --numstat --diff-filter=M "$base" "$ours" | awk '$1 != "-" { print $3 }' | sort) \
        <(git --git-dir="$git_dir" diff --numstat --diff-filter=M "$base" "$theirs" | awk '$1 != "-" { print $3 }' | sort) \
        | grep -E "$text_files" || true)
      for path in $both; do
        key=$(git --git-dir="$git_dir" rev-parse "$base:$path" "$ours:$path" "$theirs:$path" 2>/dev/null | tr '\n' ' ')
        [ -z "${seen[$key]:-}" ] || continue
        seen[$key]=1
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$repo" "$merge" "$base" "$ours" "$theirs" "$path" >> "$manifest"
        count=$((count + 1))
        [ "$count" -lt "$max" ] || break 2
      done
    done < <(git --git-dir="$git_dir" log --merges --format='%H %P' HEAD | awk 'NF == 3')
    echo "merge-corpus: $count triples of $repo added to $manifest"
    ;;
  clone)
    dir=${2:?a directory for the clones}; mkdir -p "$dir"
    for repo in $(tail -n +2 "$manifest" | cut -f1 | sort -u); do
      target="$dir/${repo/\//+}.git"
      [ -d "$target" ] || git clone --bare --quiet "https://github.com/$repo" "$target"
      echo "merge-corpus: $repo in $target"
    done
    ;;
  run)
    dir=${2:?the directory of the clones}
    dir=$(cd "$dir" && pwd)
    pattern='^sweep|^corpus|recorded an issue'
    RECONCILE_MERGE_CORPUS=$dir RECONCILE_SWEEP=quick swift test -c release --filter TextMergeCorpusTests 2>&1 \
      | grep -E "$pattern" || true
    ;;
  *)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]
    ;;
esac

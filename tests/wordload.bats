#!/usr/bin/env bats
# wordload: word lists into the dictionary table word,head,tail,len.

load test_helper/common

@test "SAS list with the seed's rules keeps 823 of 834 names" {
	run wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt"
	assert_success
	assert_equal "${#lines[@]}" 824
	assert_line --index 0 "word,head,tail,len"
	assert_line --index 1 "ABS,A,S,3"
	refute_line --partial "LOG10,"
	assert_line "COMPANION_NEXT,C,T,14"
	assert_line "SCAN,S,N,4"
}

@test "-v reports what each rule dropped on the SAS list" {
	run --separate-stderr wordload -v --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt"
	assert_success
	assert_equal "$stderr" "wordload: lines read: 836
wordload: words found: 834
wordload: invalid text skipped: 0
wordload: not kana: 0
wordload: without a letter: 0
wordload: ending in a digit: 11
wordload: shorter than --min-len: 0
wordload: longer than --max-len: 0
wordload: duplicates: 0
wordload: words written: 823"
}

@test "plain list: comments, blanks, trimming, CRLF, order, first duplicate wins" {
	run wordload "$FIX/words.txt"
	assert_success
	assert_output "word,head,tail,len
scan,s,n,4
substr,s,r,6
LOG10,L,0,5
Scan,S,n,4
indexc,i,c,6"
}

@test "--upcase makes case variants duplicates; --drop-digit-tail drops LOG10" {
	run --separate-stderr wordload -v --upcase --drop-digit-tail "$FIX/words.txt"
	assert_success
	assert_output "word,head,tail,len
SCAN,S,N,4
SUBSTR,S,R,6
INDEXC,I,C,6"
	assert_equal "$(sed -n 6p <<<"$stderr")" "wordload: ending in a digit: 1"
	assert_equal "$(sed -n 9p <<<"$stderr")" "wordload: duplicates: 2"
}

@test "stdin, with and without -" {
	run bash -c 'printf "b\na\n" | wordload'
	assert_output "word,head,tail,len
b,b,b,1
a,a,a,1"
	run bash -c 'printf "c\n" | wordload - '"$FIX/words.txt"' | sed -n 2p'
	assert_output "c,c,c,1"
}

@test "several files merge in order, dropping later duplicates" {
	printf 'indexc\nzeta\n' > more.txt
	run wordload "$FIX/words.txt" more.txt
	assert_success
	assert_line --index 6 "zeta,z,a,4"
	assert_equal "${#lines[@]}" 7
}

@test "--min-len and --max-len" {
	run wordload --min-len 5 --max-len 5 "$FIX/words.txt"
	assert_output "word,head,tail,len
LOG10,L,0,5"
}

@test "csv: a .csv file reads the word column by name, quoted commas intact" {
	run wordload "$FIX/animals.csv"
	assert_success
	assert_output "word,head,tail,len
CAT,C,T,3
TIGER,T,R,5
RABBIT,R,T,6"
}

@test "csv: --column picks another column" {
	run wordload --column name "$FIX/animals.csv"
	assert_output "word,head,tail,len
\"a, b\",a,b,4
x,x,x,1
y,y,y,1
z,z,z,1"
}

@test "csv: TSV detected from the header; --format csv on stdin" {
	run bash -c "cat '$FIX/kana.tsv' | wordload --format csv --kana"
	assert_success
	assert_output "word,head,tail,len
りんご,り,ご,3
ごりら,ご,ら,3"
}

@test "csv: a missing column names file and line" {
	run wordload --column nope "$FIX/animals.csv"
	assert_failure 1
	assert_output "wordload: $FIX/animals.csv:1: missing column 'nope'"
}

@test "csv: a ragged row is an error with its line" {
	printf 'word\nA\nB,C\n' > ragged.csv
	run wordload ragged.csv
	assert_failure 1
	assert_output "wordload: ragged.csv:3: expected 1 fields, found 2"
}

@test "csv: an unterminated quote is an error with its line" {
	printf 'word\nA\n"B\nC\n' > open.csv
	run wordload open.csv
	assert_failure 1
	assert_output "wordload: open.csv:3: unterminated quoted field"
}

@test "gzip input is detected by content: list and csv" {
	gzip -c "$FIX/words.txt" > words.gz
	run wordload words.gz
	assert_success
	assert_line --index 1 "scan,s,n,4"
	gzip -c "$FIX/animals.csv" > animals.csv.gz
	run wordload animals.csv.gz
	assert_line --index 3 "RABBIT,R,T,6"
	run bash -c "gzip -c '$FIX/words.txt' | wordload | wc -l"
	assert_output "6"
}

@test "a corrupt gzip stream is an error" {
	gzip -c "$FIX/words.txt" | head -c 20 > cut.gz
	run wordload cut.gz
	assert_failure 1
	assert_output "wordload: cut.gz:1: truncated gzip data: the stream ends early"
}

@test "a UTF-8 byte order mark is stripped" {
	printf '\xef\xbb\xbfword\nA\n' > bom.csv
	run wordload bom.csv
	assert_output "word,head,tail,len
A,A,A,1"
}

@test "skk: okuri-nasi kana readings only, from EUC-JP" {
	run --separate-stderr wordload -v --format skk "$FIX/skk-small.euc"
	assert_success
	assert_output "word,head,tail,len
あい,あ,い,2
あいす,あ,す,3
きしゃ,き,や,3
こーひー,こ,ひ,4
すいか,す,か,3"
	assert_equal "$(sed -n 4p <<<"$stderr")" "wordload: not kana: 4"
}

@test "skk: gzip-compressed dictionary" {
	gzip -c "$FIX/skk-small.euc" > skk.gz
	run wordload -f skk skk.gz
	assert_success
	assert_equal "${#lines[@]}" 6
}

@test "ipadic: readings of nouns, duplicates dropped, unknown readings skipped" {
	run wordload --format ipadic "$FIX/ipadic-small.euc.csv"
	assert_success
	assert_output "word,head,tail,len
リンゴ,り,ご,3
ゴリラ,ご,ら,3
トウキョウ,と,う,5"
}

@test "ipadic: --pos selects by part-of-speech path" {
	run wordload -f ipadic --pos 名詞,固有名詞 "$FIX/ipadic-small.euc.csv"
	assert_output "word,head,tail,len
トウキョウ,と,う,5"
	run wordload -f ipadic --pos 動詞 "$FIX/ipadic-small.euc.csv"
	assert_output "word,head,tail,len
ハシル,は,る,3"
}

@test "--pos without ipadic is a usage error" {
	run wordload --pos 名詞 "$FIX/words.txt"
	assert_failure 2
	assert_output "wordload: --pos applies only to --format ipadic
Try 'wordload --help' for more information."
}

@test "kana: long vowel modes and dakuten folding" {
	printf 'パーティー\nきっぷ\nはなぢ\nをとめ\n' > kana.txt
	run wordload --kana kana.txt
	assert_output "word,head,tail,len
パーティー,ぱ,い,5
きっぷ,き,ぷ,3
はなぢ,は,じ,3
をとめ,お,め,3"
	run wordload --kana --long-vowel keep --fold-dakuten kana.txt
	assert_output "word,head,tail,len
パーティー,は,ー,5
きっぷ,き,ふ,3
はなぢ,は,し,3
をとめ,お,め,3"
	printf 'カレー\n' > curry.txt
	run wordload --kana --long-vowel vowel curry.txt
	assert_output "word,head,tail,len
カレー,か,え,3"
}

@test "kana: words that are not all kana are dropped and counted" {
	printf 'ねこ\n猫\nabc\n' > mixed.txt
	run --separate-stderr wordload -v --kana mixed.txt
	assert_output "word,head,tail,len
ねこ,ね,こ,2"
	assert_equal "$(sed -n 4p <<<"$stderr")" "wordload: not kana: 2"
}

@test "--points: chars by default, kana without ー, or morae" {
	printf 'シャツ\nパーティー\nきっぷ\nぢょーく\nァイ\n' > kana.txt
	run wordload --kana kana.txt
	assert_output "word,head,tail,len
シャツ,し,つ,3
パーティー,ぱ,い,5
きっぷ,き,ぷ,3
ぢょーく,じ,く,4
ァイ,あ,い,2"
	run wordload --kana --points kana kana.txt
	assert_equal "$(cut -d, -f4 <<<"$output" | tr '\n' ' ')" "len 3 3 3 3 2 "
	# Morae: シャ is one, ー and っ count, a small kana first counts alone.
	run wordload --kana --points mora kana.txt
	assert_equal "$(cut -d, -f4 <<<"$output" | tr '\n' ' ')" "len 2 4 3 3 2 "
	run wordload --kana --points mora --min-len 3 kana.txt
	assert_equal "$(cut -d, -f1 <<<"$output" | tr '\n' ' ')" "word パーティー きっぷ ぢょーく "
	run wordload --points mora kana.txt
	assert_failure 2
	assert_line --index 0 "wordload: --points mora applies to Japanese words (--kana, -f skk or -f ipadic)"
	run wordload --points syllable kana.txt
	assert_failure 2
	assert_line --index 0 --partial "wordload: invalid --points 'syllable'"
}

@test "--fold-case, --fold-accents, --letters-only: keys as people play them" {
	# café twice: precomposed é, then e and a combining acute (U+0301).
	nfd=$(printf 'cafe\xcc\x81')
	run wordload "$FIX/latin.txt"
	assert_line "Asunción,A,n,8"
	assert_line "café,c,é,4"
	assert_line "don't,d,t,5"
	assert_line "'tis,',s,4"
	run wordload --fold-case "$FIX/latin.txt"
	assert_line "Asunción,a,n,8"
	assert_line "Σίσυφος,σ,σ,7"
	assert_line "İstanbul,i,l,8"
	assert_line "Ёлка,ё,а,4"
	run wordload --fold-accents "$FIX/latin.txt"
	assert_line "café,c,e,4"
	assert_line "$nfd,c,e,5"
	assert_line "Æsop,A,p,4"
	assert_line "Fuß,F,s,3"
	assert_line "Łódź,L,z,4"
	assert_line "Phở,P,o,3"
	run --separate-stderr wordload -v --letters-only "$FIX/latin.txt"
	assert_line "$nfd,c,e,5"
	assert_line "1990s,s,s,5"
	assert_line "'tis,t,s,4"
	refute_line --regexp "^42,"
	assert_equal "$(sed -n 5p <<<"$stderr")" "wordload: without a letter: 1"
	run wordload --fold-case --fold-accents --letters-only "$FIX/latin.txt"
	assert_output "word,head,tail,len
Asunción,a,n,8
café,c,e,4
$nfd,c,e,5
don't,d,t,5
Æsop,a,p,4
Fuß,f,s,3
rock'n'roll,r,l,11
O'Brien,o,n,7
Łódź,l,z,4
İstanbul,i,l,8
Ĳssel,i,l,5
Ωμέγα,ω,α,5
Σίσυφος,σ,σ,7
Ёлка,ё,а,4
1990s,s,s,5
'tis,t,s,4
Nguyễn,n,n,6
œuvre,o,e,5
Phở,p,o,3"
}

@test "--letters-only keeps the SAS rules' 823 names; Latin rules exclude kana" {
	run wordload --upcase --drop-digit-tail --letters-only "$TOP/dictionaries/sas-functions.txt"
	assert_equal "$output" "$(wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt")"
	printf 'LOG10\nA_1\n' > d.txt
	run wordload --letters-only --drop-digit-tail d.txt
	assert_failure 1
	assert_output "wordload: d.txt:3: no words left (-v tells what each rule dropped)"
	run wordload --kana --fold-case d.txt
	assert_failure 2
	assert_line --index 0 "wordload: --fold-case applies to words that are not kana (not with --kana, -f skk or -f ipadic)"
	run wordload -f skk --letters-only d.txt
	assert_failure 2
	assert_line --index 0 "wordload: --letters-only applies to words that are not kana (not with --kana, -f skk or -f ipadic)"
}

@test "the shipped Japanese list loads whole" {
	run wordload --kana "$TOP/dictionaries/japanese-nouns.txt"
	assert_success
	assert_equal "${#lines[@]}" 331
	assert_line "しゃしん,し,ん,4"
}

@test "--encoding converts other encodings" {
	run wordload --encoding SHIFT_JIS --kana "$FIX/sjis.txt"
	assert_output "word,head,tail,len
ねこ,ね,こ,2
いぬ,い,ぬ,2"
}

@test "--encoding: unknown and not line-based encodings are usage errors" {
	run wordload --encoding NOPE-9 "$FIX/words.txt"
	assert_failure 2
	assert_line --index 0 "wordload: unknown encoding 'NOPE-9'"
	run wordload --encoding UTF-16 "$FIX/words.txt"
	assert_failure 2
	assert_line --index 0 "wordload: encoding 'UTF-16' is not supported: lines must end in the byte 0x0A"
}

@test "text that is not valid in its encoding names file and line" {
	{ printf 'ねこ\n' | iconv -t EUC-JP; printf '\xff\xfe\n'; } > bad.euc
	run wordload --encoding EUC-JP bad.euc
	assert_failure 1
	assert_output "wordload: bad.euc:2: invalid text in the input encoding"
}

@test "invalid UTF-8 names file and line; --skip-invalid counts and skips" {
	run wordload "$FIX/invalid.txt"
	assert_failure 1
	assert_output "wordload: $FIX/invalid.txt:3: invalid UTF-8"
	run --separate-stderr wordload -v --skip-invalid "$FIX/invalid.txt"
	assert_success
	assert_output "word,head,tail,len
word,w,d,4
SCAN,S,N,4
NEXT,N,T,4"
	assert_equal "$(sed -n 3p <<<"$stderr")" "wordload: invalid text skipped: 1"
}

@test "invalid UTF-8 in a csv column names file and line" {
	printf 'word\nA\nB\xc3\n' > bad.csv
	run wordload bad.csv
	assert_failure 1
	assert_output "wordload: bad.csv:3: invalid UTF-8"
}

@test "an empty result is an error unless --allow-empty" {
	printf '# nothing\n\n' > empty.txt
	run wordload empty.txt
	assert_failure 1
	assert_output "wordload: empty.txt:3: no words left (-v tells what each rule dropped)"
	run wordload --allow-empty empty.txt
	assert_success
	assert_output "word,head,tail,len"
	run wordload --allow-empty -o out.csv empty.txt
	assert_equal "$(cat out.csv)" "word,head,tail,len"
}

@test "an empty csv file is an error" {
	: > nothing.csv
	run wordload nothing.csv
	assert_failure 1
	assert_output "wordload: nothing.csv:1: empty input, expected a header line"
}

@test "-t writes TSV, -z gzip, -o FILE.gz gzip, --bom a byte order mark" {
	run wordload -t "$FIX/animals.csv"
	assert_line --index 1 "$(printf 'CAT\tC\tT\t3')"
	wordload -z "$FIX/animals.csv" > z.gz
	run bash -c 'gzip -dc z.gz | tail -1'
	assert_output "RABBIT,R,T,6"
	wordload -o out.csv.gz "$FIX/animals.csv"
	run bash -c 'gzip -dc out.csv.gz | wc -l'
	assert_output "4"
	wordload --bom "$FIX/animals.csv" > bom.csv
	run head -c 3 bom.csv
	assert_output $'\xef\xbb\xbf'
}

@test "-o writes atomically and leaves nothing behind on failure" {
	run wordload -o dict.csv "$FIX/animals.csv"
	assert_success
	assert_output ""
	assert_equal "$(wc -l < dict.csv)" 4
	run wordload -o fail.csv "$FIX/invalid.txt"
	assert_failure 1
	[ ! -e fail.csv ]
	run ls
	refute_output --partial "tmp"
	echo keep > keep.csv
	run wordload -o keep.csv "$FIX/invalid.txt"
	assert_equal "$(cat keep.csv)" "keep"
}

@test "-o into a missing directory fails cleanly" {
	run wordload -o no/such/dir.csv "$FIX/animals.csv"
	assert_failure 1
	assert_output "wordload: cannot create no/such/dir.csv: No such file or directory"
}

@test "a missing input file is an error" {
	run wordload nope.txt
	assert_failure 1
	assert_output "wordload: cannot open nope.txt: No such file or directory"
}

@test "write errors are detected: /dev/full exits 1" {
	run bash -c "wordload '$TOP/dictionaries/sas-functions.txt' > /dev/full"
	assert_failure 1
	assert_output "wordload: stdout: write error: No space left on device"
}

@test "a closed pipe ends the program quietly" {
	run bash -c "wordload /usr/share/dict/american-english | head -1; echo \"\${PIPESTATUS[0]}\""
	assert_output "word,head,tail,len
141"
}

@test "usage errors exit 2" {
	run wordload --no-such-option
	assert_failure 2
	assert_output "wordload: unrecognized option '--no-such-option'
Try 'wordload --help' for more information."
	# Run by its path, its messages still name it as every other one does.
	run "$TOP/bin/wordload" --no-such-option
	assert_failure 2
	assert_line --index 0 "wordload: unrecognized option '--no-such-option'"
	run wordload --min-len 0 "$FIX/words.txt"
	assert_failure 2
	assert_line --index 0 "wordload: invalid --min-len '0': expected an integer from 1 to 1000000"
	run wordload --max-len 99999999999999999999 "$FIX/words.txt"
	assert_failure 2
	assert_line --index 0 "wordload: invalid --max-len '99999999999999999999': expected an integer from 1 to 1000000"
	run wordload --min-len 5 --max-len 2 "$FIX/words.txt"
	assert_failure 2
	assert_line --index 0 "wordload: --max-len 2 is less than --min-len 5"
	run wordload --format xml "$FIX/words.txt"
	assert_failure 2
	assert_line --index 0 "wordload: invalid --format 'xml': expected one of list, csv, skk, ipadic"
	run wordload --long-vowel long "$FIX/words.txt"
	assert_failure 2
	assert_line --index 0 "wordload: invalid --long-vowel 'long': expected one of drop, vowel, keep"
}

@test "--help lists every option; --version" {
	run wordload --help
	assert_success
	for opt in --format --column --encoding --pos --upcase --drop-digit-tail --min-len \
		--max-len --kana --long-vowel --fold-dakuten --skip-invalid --allow-empty \
		--verbose --output --tsv --gzip --bom --help --version; do
		assert_output --partial -- "$opt"
	done
	run wordload --version
	assert_output "wordload (yomi) 0.1.0"
}

@test "real dictionaries: SKK-JISYO.L and IPADIC nouns" {
	run --separate-stderr wordload -v -f skk /usr/share/skk/SKK-JISYO.L
	assert_success
	assert_equal "$(tail -1 <<<"$stderr")" "wordload: words written: 131831"
	assert_line "しりとり,し,り,4"
	run bash -c "wordload -f ipadic /usr/share/mecab/dic/ipadic/Noun.csv | grep -c '^シリトリ,'"
	assert_output "1"
}

@test "-o takes a 250-byte file name, new or replaced" {
	name=$(printf 'a%.0s' $(seq 250)).csv
	run wordload -o "$name" "$FIX/animals.csv"
	assert_success
	run wordload -o "$name" "$FIX/animals.csv"
	assert_success
	assert_equal "$(ls | wc -l)" 1
	assert_equal "$(wc -l < "$name")" 4
}

@test "-o keeps the mode of the file it replaces, through a symlink too" {
	echo old > keep.csv
	chmod 600 keep.csv
	wordload -o keep.csv "$FIX/animals.csv"
	assert_equal "$(stat -c %a keep.csv)" 600
	echo old > target.csv
	chmod 640 target.csv
	ln -s target.csv link.csv
	wordload -o link.csv "$FIX/animals.csv"
	assert_equal "$(stat -c '%a %F' target.csv)" "640 regular file"
	assert_equal "$(stat -c %F link.csv)" "symbolic link"
	assert_equal "$(wc -l < target.csv)" 4
	wordload -o new.csv "$FIX/animals.csv"
	assert_equal "$(stat -c %a new.csv)" "$(umask -S >/dev/null; printf '%o' $((0666 & ~$(umask))))"
	assert_equal "$(ls | sort | tr '\n' ' ')" "keep.csv link.csv new.csv target.csv "
}

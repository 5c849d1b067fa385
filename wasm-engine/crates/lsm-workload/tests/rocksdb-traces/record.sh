#!/bin/sh
# How the fixtures were recorded: db_bench 7.8.3 (Debian's), one benchmark per trace (db_bench
# starts a new trace file for each benchmark). Run from this directory; needs db_bench.
set -e
db=$(mktemp -d)
B="db_bench --key_size=16 --value_size=32 --compression_type=none --threads=1"
$B --db=$db/a --benchmarks=fillrandom --num=200
$B --db=$db/a --use_existing_db=1 --benchmarks=readrandomwriterandom --num=200 --reads=200 --seed=1 --trace_file=readrandomwriterandom.trace
$B --db=$db/b --benchmarks=fillrandom --num=100 --batch_size=10 --seed=2 --trace_file=fillrandom_batch10.trace
$B --db=$db/a --use_existing_db=1 --benchmarks=seekrandom --num=200 --reads=30 --seek_nexts=3 --max_scan_distance=10 --seed=3 --trace_file=seekrandom_bounded.trace
$B --db=$db/a --use_existing_db=1 --benchmarks=seekrandom --num=200 --reads=20 --reverse_iterator=1 --seed=4 --trace_file=seekrandom_reverse.trace
$B --db=$db/a --use_existing_db=1 --benchmarks=multireadrandom --num=200 --reads=40 --batch_size=4 --seed=5 --trace_file=multireadrandom.trace
$B --db=$db/a --use_existing_db=1 --benchmarks=deleterandom --num=30 --seed=6 --trace_file=deleterandom.trace
$B --db=$db/c --benchmarks=mergerandom --merge_operator=uint64add --num=20 --value_size=8 --seed=7 --trace_file=mergerandom.trace
$B --db=$db/d --benchmarks=fillrandom --num_column_families=2 --num=40 --seed=8 --trace_file=fillrandom_2cf.trace
rm -rf "$db"

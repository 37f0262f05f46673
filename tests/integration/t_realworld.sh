#!/bin/sh
# Issue 16: widely copied job files and command lines (kubestr, dbench, yabs.sh, kbench,
# fio-plot, the cloud providers' guides, Phoronix's pts/fio, SNIA-style rounds, etcd's disk
# check, a Prometheus exporter of terse lines, json+ histograms) run with fio 3.33 and with
# iobench, and read as their consumers read them (tests/realworld/consumers.py): per job,
# both run and print the same keys with the same types; per consumer, it gets a value of
# the same kind from both. About 20 s (two cases at a time; fio's start-up is most of it).
. "$(dirname "$0")/../lib.sh"
if ! have fio || ! have python3; then
	skip "real-world jobs against fio" "fio or python3 is not installed"
	exit 0
fi
python3 "$TOP/tests/realworld/run.py" "$IOBENCH" "$T"

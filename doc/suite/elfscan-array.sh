#!/bin/sh
# A suite audited by a Slurm job array: eight tasks, each one shard of the
# suite's packages (elfscan --shard auto/8 reads SLURM_ARRAY_TASK_ID),
# each keeping its own SQLite store and JSON Lines in the shared directory
# (SQLite's WAL wants one machine a file: one store a shard). A task's
# rerun after an upload reads only its new packages.
#
#   sbatch elfscan-array.sh
#   cat /srv/elfscan/trixie-*.jsonl        (the suite, when all are done)
#
#SBATCH --job-name=elfscan-trixie
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --time=02:00:00
#SBATCH --output=/srv/elfscan/trixie-%a.log
set -u
mirror=${MIRROR:-/srv/mirror/debian} suite=${SUITE:-trixie}
out=${OUT:-/srv/elfscan}/$suite-$SLURM_ARRAY_TASK_ID
elfscan --no-progress --format=json --jobs "${SLURM_CPUS_PER_TASK:-2}" \
    --shard auto/8 --store "$out.db" \
    "apt:$mirror:$suite:main" >"$out.jsonl"
# 1: findings, which is what the audit is for; 2: something not read.
[ $? -le 1 ]

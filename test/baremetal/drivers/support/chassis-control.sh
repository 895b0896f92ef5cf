#!/bin/sh
# The chassis behind a test's ipmi_sim (test/baremetal/drivers/support/ipmi-sim.ts): ipmi_sim runs
# `chassis-control.sh DIR get power boot` and `chassis-control.sh DIR set NAME VALUE...`. The
# state is one file per name in DIR; every set request is appended to DIR/requests, so a test
# sees exactly what reached the BMC.
dir=$1
action=$2
shift 2
case $action in
get)
  for name in "$@"; do
    value=$(cat "$dir/$name" 2>/dev/null)
    case $name in
    power) echo "power:${value:-0}" ;;
    boot) echo "boot:${value:-default}" ;;
    esac
  done
  ;;
set)
  while [ $# -ge 2 ]; do
    echo "$1 $2" >>"$dir/requests"
    case $1 in
    power) printf '%s' "$2" >"$dir/power" ;;
    boot) printf '%s' "$2" >"$dir/boot" ;;
    reset) printf '1' >"$dir/power" ;;
    shutdown) printf '0' >"$dir/power" ;;
    esac
    shift 2
  done
  ;;
esac
exit 0

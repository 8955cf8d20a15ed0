#!/bin/bash
# Session 19: GPU tests of a9b2b11 (Haar's forward edges reaching back on every 2-D forward), then
# the full run and the floor: the same steps as tests-full.sh (db1c421), with a9b2b11's builds in
# .device/s19.
exec bash "$(dirname "$0")/tests-full.sh"

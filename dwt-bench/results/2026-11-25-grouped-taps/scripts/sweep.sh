#!/bin/bash
# Tile shapes per program at 1920x1080: the twelfth session's sweep (merged since: it ran as a
# copy of it taking `tTHREADS`) with this session's bench, 50 calls per median.
# Args: wavelet:TXxTYtTHREADSsSEG,...
B=.device/s13/dwt-bench-new SIZES=1080p REPS=50 exec bash "$(dirname "$0")/../../2026-11-25-taller-tiles/scripts/sweep2.sh" "$@"

#!/bin/sh
# no-check.sh - stands in for the unit tests when configure did not find Check: fails loudly.
echo "the unit tests need Check, which configure did not find:"
echo "  apt-get install check    then re-run configure"
exit 1

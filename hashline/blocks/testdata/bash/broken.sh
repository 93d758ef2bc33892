if [ x ]; then
  echo

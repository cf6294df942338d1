# expect: dynamic_exec
exec(open("/mnt/data/script.py").read())

# expect: dynamic_exec
# A computed module name defeats a static look: only the dynamic import itself is flagged.
mod = __import__("o" + "s")
mod.system("id")

# expect: dynamic_exec
expr = df["formula"].iloc[0]
print(eval(expr))

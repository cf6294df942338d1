%timeit df["amount"].sum()
%matplotlib inline
print("timed")

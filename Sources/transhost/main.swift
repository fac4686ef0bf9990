print("transhost")

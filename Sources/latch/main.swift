print("latch")

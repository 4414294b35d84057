class constexpr:
    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "constexpr[%r]" % (self.value,)


class dtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "triton.language." + self.name

    __str__ = __repr__


float16 = dtype("fp16")
float32 = dtype("fp32")

from enum import StrEnum

class PutFormsIdDetect(StrEnum):
    FALSE = "false"
    TRUE = "true"
    VALUE_0 = "1"
    VALUE_1 = "0"

    def __str__(self) -> str:
        return str(self.value)

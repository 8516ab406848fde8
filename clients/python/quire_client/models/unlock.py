from enum import StrEnum

class Unlock(StrEnum):
    DECRYPT = "decrypt"
    FALSE = "false"
    REBUILD = "rebuild"
    TRUE = "true"
    VALUE_0 = "1"
    VALUE_1 = "0"

    def __str__(self) -> str:
        return str(self.value)

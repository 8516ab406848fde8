from enum import StrEnum

class PostFormsMode(StrEnum):
    EDITABLE = "editable"
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)

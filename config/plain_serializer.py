"""``PlainSerializer``: a read-only DRF serializer that renders an answer field by field, for
answers rendered many times a second (the league's standings, every hand answer: issue #27),
while staying the serializer that documents the answer in the schema."""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter, itemgetter

from rest_framework import serializers

_PLAIN_FIELDS: dict[type, tuple] = {}
_IS_MAPPING: dict[type, bool] = {}  # isinstance(x, Mapping) by type: the ABC's check is slow


def _by_key(attrs: list[str]):
    """A source read from a mapping, as ``rest_framework.fields.get_attribute`` reads it."""
    if not attrs:  # source="*"
        return _itself
    if len(attrs) == 1:
        return itemgetter(attrs[0])

    def read(instance):
        for attr in attrs:
            instance = instance[attr] if isinstance(instance, Mapping) else getattr(instance, attr)
        return instance

    return read


def _itself(instance):
    return instance


def _plain_field(cls: type, field: serializers.Field) -> tuple:
    """(name, read from a mapping, read from an object, render, method) of one field; a
    method field is (name, None, None, None, the class's method)."""
    if isinstance(field, serializers.SerializerMethodField):
        return field.field_name, None, None, None, getattr(cls, field.method_name)
    nested = field.child if isinstance(field, serializers.ListSerializer) else field
    if isinstance(nested, serializers.BaseSerializer):
        # Rendered by the prototype's own field, outside the answer's tree: its context is
        # not the answer's, so a method field below would not see it.
        assert not any(isinstance(f, serializers.SerializerMethodField)
                       for f in nested.fields.values()), (cls, field.field_name)
    attrs = field.source_attrs
    by_attr = attrgetter(".".join(attrs)) if attrs else _itself
    return field.field_name, _by_key(attrs), by_attr, field.to_representation, None


class PlainSerializer(serializers.Serializer):
    """A read-only Serializer that renders each readable field as
    ``Serializer.to_representation`` does, without its generic walk per field and instance
    (the fields made again for each answer, each field's source resolved and read through
    ``fields.get_attribute``, its errors caught: most of a season's standings answer and of
    each hand recorded, issue #27). Once a class, a prototype's fields give each field's
    reader (a mapping by key, anything else by attribute, a dotted source step by step, "*"
    the instance), its own ``to_representation`` (null stays null), or its method; the
    instance renders with them. Where a value is missing (a KeyError or AttributeError) the
    instance takes the generic walk (the field's default, null, skip or error, as DRF says).

    What it assumes: the values read are plain (a source that names a method is not called,
    where DRF calls it), and a nested serializer has no method field (it renders outside
    the answer's tree, without its context; checked). The byte-equality tests hold each
    plain serializer to DRF's walk: ``tests/league/test_stored_standings.py`` (standings),
    ``tests/web/test_api_hands.py`` (hand answers)."""

    @classmethod
    def plain_fields(cls) -> tuple:
        """(name, read by key, read by attribute, render, method) of each readable field,
        once a class (from a prototype's fields: these fields render a value alone,
        whatever their parent)."""
        found = _PLAIN_FIELDS.get(cls)
        if found is None:
            found = _PLAIN_FIELDS[cls] = tuple(
                _plain_field(cls, f) for f in cls().fields.values() if not f.write_only)
        return found

    def to_representation(self, instance):
        fields = _PLAIN_FIELDS.get(type(self)) or self.plain_fields()
        mapping = _IS_MAPPING.get(kind := type(instance))
        if mapping is None:
            mapping = _IS_MAPPING[kind] = isinstance(instance, Mapping)
        try:
            if mapping:
                return {name: method(self, instance) if method else
                        None if (value := by_key(instance)) is None else show(value)
                        for name, by_key, _, show, method in fields}
            return {name: method(self, instance) if method else
                    None if (value := by_attr(instance)) is None else show(value)
                    for name, _, by_attr, show, method in fields}
        except (KeyError, AttributeError):  # a value missing: DRF's default, null, skip or error
            pass
        return super().to_representation(instance)

; Java definitions for the repotrans index.
; Capture names follow the tree-sitter tags convention: @definition.<kind> on the declaration,
; @name on its name. parse.py reads the rest of each declaration through the grammar's fields.

(package_declaration [(identifier) (scoped_identifier)] @name) @definition.module

(import_declaration) @reference.import

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(annotation_type_declaration name: (identifier) @name) @definition.annotation

(enum_constant name: (identifier) @name) @definition.enum_constant

(field_declaration) @definition.field
(constant_declaration) @definition.field

(method_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor

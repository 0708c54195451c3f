; C# definitions for the repotrans index.
; Capture names follow the tree-sitter tags convention: @definition.<kind> on the declaration,
; @name on its name. parse.py reads the rest of each declaration through the grammar's fields.

(namespace_declaration name: (_) @name) @definition.module
(file_scoped_namespace_declaration name: (_) @name) @definition.module

(using_directive) @reference.import

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(struct_declaration name: (identifier) @name) @definition.struct
(delegate_declaration name: (identifier) @name) @definition.delegate

(enum_member_declaration name: (identifier) @name) @definition.enum_constant

(field_declaration) @definition.field
(event_field_declaration) @definition.field

(method_declaration name: (identifier) @name) @definition.method
(operator_declaration) @definition.method
(conversion_operator_declaration) @definition.method
(destructor_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(property_declaration name: (identifier) @name) @definition.property
(event_declaration name: (identifier) @name) @definition.property
(indexer_declaration) @definition.indexer

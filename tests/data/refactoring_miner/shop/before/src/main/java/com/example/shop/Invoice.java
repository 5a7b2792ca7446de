package com.example.shop;

import java.util.List;

public class Invoice {
    private final List<Item> items;

    public Invoice(List<Item> items) {
        this.items = items;
    }

    public String print(Customer customer) {
        StringBuilder out = new StringBuilder();
        out.append("Invoice for ").append(customer.getName()).append('\n');
        double total = 0;
        for (Item item : items) {
            total += item.getPrice() * item.getQuantity();
        }
        out.append("Total: ").append(total * (1 - discount(customer)));
        return out.toString();
    }

    public double discount(Customer customer) {
        return customer.isLoyal() ? 0.1 : 0.0;
    }
}
